import { createEventAudit } from '../../audit/event-audit.ts';
import type { TenantStore } from '../../auth/tenants.ts';
import type { BlueprintStore } from '../../catalog/blueprints.ts';
import { catalogServices } from '../../catalog/compose.ts';
import type { EntityStore } from '../../catalog/entities.ts';
import type { CheckService } from '../../checks/services.ts';
import type { HostPolicy } from '../../http/origin-policy.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Logger } from '../../platform/logger.ts';
import type { CursorSeal } from '../../store/cursor-seal.ts';
import type { Table } from '../../store/table.ts';
import { pingKeyRoutes } from './ping-key-routes.ts';
import { createPingKeyService } from './ping-key-service.ts';
import { createSlugResolver } from './slug-resolver.ts';

export interface SlugUrlDeps {
  table: Table;
  clock: Clock;
  logger: Logger;
  hosts: HostPolicy;
  cursors: CursorSeal;
  blueprints: BlueprintStore;
  entities: EntityStore;
  tenants: Pick<TenantStore, 'getTenant'>;
  checkService: CheckService;
}

/**
 * Slug ping URLs (`/ping/<ping key>/<slug>`, docs/heartbeats.md "Slug URLs"): the ping key
 * routes, and the resolver the ping routes take (their `slugs`).
 */
export function composeSlugUrls(deps: SlugUrlDeps) {
  const pingKeys = createPingKeyService(deps);
  const catalog = catalogServices(deps);
  const slugResolver = createSlugResolver({
    ...deps,
    pingKeys,
    blueprintService: catalog.blueprintService,
    entityService: catalog.entityService,
    audit: createEventAudit({
      ...deps,
      retentionDays: async (tenantId) => (await deps.tenants.getTenant(tenantId))?.retention_days ?? 30,
    }),
  });
  return { pingKeys, slugResolver, routes: pingKeyRoutes({ pingKeys, hosts: deps.hosts }) };
}
