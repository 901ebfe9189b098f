import type { Tenant } from '../auth/records.ts';
import type { TenantStore } from '../auth/tenants.ts';
import { createLocationDecider, type LocationDecider, type ResultRecorder } from '../checks/probing.ts';
import type { CheckStore } from '../checks/services.ts';
import type { Clock } from '../platform/clock.ts';
import type { Config } from '../platform/config.ts';
import type { Logger } from '../platform/logger.ts';
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
  logger: Logger;
  config: Pick<Config, 'runtime' | 'agentAllowHttp'>;
  tenants: Pick<TenantStore, 'requireTenant'> & {
    getTenant(tenantId: string): Promise<Tenant | undefined>;
  };
  checks: CheckStore;
  recorder: ResultRecorder;
  /** The deciding side of located checks; default one built here from the same parts. */
  decider?: LocationDecider;
  /** Aborted when the runtime stops: open long-polls answer at once. */
  stopping?: AbortSignal;
}) {
  const { table, clock, tenants, checks } = deps;
  const heartbeat = createHeartbeat({ table, clock });
  const decider =
    deps.decider ??
    createLocationDecider({ table, recorder: deps.recorder, checks, tenants, clock, logger: deps.logger });
  return {
    routes: [
      ...locationRoutes({
        locations: createLocationService({
          table,
          clock,
          tenantCreatedAt: async (tenantId) => (await tenants.requireTenant(tenantId)).created_at,
          checkNaming: (tenantId, location) => checks.namingLocation(tenantId, location),
        }),
        heartbeat,
      }),
      ...agentRoutes({
        leases: createLeaseService({
          table,
          checks,
          clock,
          ...(deps.stopping ? { stopping: deps.stopping } : {}),
        }),
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
