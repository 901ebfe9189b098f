import type { TenantStore } from '../auth/tenant-store.ts';
import type { CheckStore } from '../checks/definitions/check-store.ts';
import type { LocationDecider } from '../checks/results/location-decision.ts';
import type { Clock } from '../platform/clock.ts';
import type { Config } from '../platform/config.ts';
import type { Table } from '../store/table.ts';
import { agentRoutes } from './agent-routes.ts';
import { createLocationAuthenticator } from './authenticate-location.ts';
import { createHeartbeat } from './heartbeat.ts';
import { createLeaseService } from './lease-service.ts';
import { createLocationService } from './location-service.ts';
import { createResultIntake } from './result-intake.ts';
import { locationRoutes } from './routes.ts';

/**
 * The locations feature: its routes (the Locations API and the agent protocol's heartbeat, lease
 * and results), and the authenticator of location keys the router uses for /v1/agent/*.
 */
export function composeLocations(deps: {
  table: Table;
  clock: Clock;
  config: Pick<Config, 'runtime' | 'agentAllowHttp'>;
  tenants: Pick<TenantStore, 'requireTenant' | 'getTenant'>;
  checks: CheckStore;
  /** The deciding side of located checks (lib/compose-probing.ts): posted results go to it. */
  decider: LocationDecider;
}) {
  const { table, clock, tenants, checks, decider } = deps;
  const heartbeat = createHeartbeat({ table, clock });
  return {
    routes: [
      ...locationRoutes({
        locations: createLocationService({
          table,
          clock,
          tenantCreatedAt: async (tenantId) => (await tenants.requireTenant(tenantId)).created_at,
        }),
        heartbeat,
      }),
      ...agentRoutes({
        leases: createLeaseService({ table, checks, clock }),
        intake: createResultIntake({ table, clock, decider }),
        heartbeat,
        transport: { alwaysTls: deps.config.runtime === 'cloud', allowHttp: deps.config.agentAllowHttp },
      }),
    ],
    authenticateLocation: createLocationAuthenticator({
      table,
      clock,
      getTenant: (tenantId) => tenants.getTenant(tenantId),
    }),
  };
}
