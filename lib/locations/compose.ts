import type { Tenant } from '../auth/tenant-items.ts';
import type { Clock } from '../platform/clock.ts';
import type { Table } from '../store/table.ts';
import { createLocationAuthenticator } from './authenticate-location.ts';
import { createHeartbeat } from './heartbeat.ts';
import { createLocationService } from './location-service.ts';
import { locationRoutes } from './routes.ts';

/** The locations feature: its routes, and the authenticator of location keys the router uses for /v1/agent/*. */
export function composeLocations(deps: {
  table: Table;
  clock: Clock;
  tenants: {
    getTenant(tenantId: string): Promise<Tenant | undefined>;
    requireTenant(tenantId: string): Promise<Tenant>;
  };
  /** The checks engine's read of a check naming a location (lib/checks' CheckStore). */
  checks: {
    namingLocation(tenantId: string, location: string): Promise<{ id: string; name: string } | undefined>;
  };
}) {
  const { table, clock, tenants } = deps;
  return {
    routes: locationRoutes({
      locations: createLocationService({
        table,
        clock,
        tenantCreatedAt: async (tenantId) => (await tenants.requireTenant(tenantId)).created_at,
        checkNaming: (tenantId, location) => deps.checks.namingLocation(tenantId, location),
      }),
      heartbeat: createHeartbeat({ table, clock }),
    }),
    authenticateLocation: createLocationAuthenticator({
      table,
      clock,
      getTenant: (tenantId) => tenants.getTenant(tenantId),
    }),
  };
}
