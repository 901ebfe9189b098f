import type { TenantStore } from './auth/tenants.ts';
import { backfillSearchKeys } from './catalog/services.ts';
import {
  migrateCheckItems,
  migrateChecksToCells,
  migrateEntityAggregates,
  migrateStatePartitions,
} from './checks/services.ts';
import { BUILTIN_TOOLSETS } from './features/feature-routes.ts';
import { moveLegacyIncidents } from './incidents/incident-items.ts';
import { migrateIncidentExpiry } from './incidents/incident-retention.ts';
import { upgradeBuiltinSkills } from './mcp/builtin-skill-upgrade.ts';
import { seedToldWords } from './notify/records.ts';
import type { Clock } from './platform/clock.ts';
import type { Logger } from './platform/logger.ts';
import { migrateStatusCounters } from './status/status-migration.ts';
import type { Table } from './store/table.ts';

/** What each migration moved or wrote (`npm run vigil -- data migrate` prints it as JSON). */
export interface MigrationSummary {
  checks_migrated: number;
  check_states_moved: number;
  tenants_seeded: number;
  checks_moved_to_cells: number;
  entity_pointers_named: number;
  incidents_moved_to_shards: number;
  entity_aggregates_moved: number;
  incidents_given_expiry: number;
  told_words_seeded: number;
  builtin_skills_upgraded: number;
}

/**
 * Every data migration, in the order the layouts followed each other: the local runtime runs them at
 * start (before the scheduler reads the due index and before the API serves), the operator CLI's
 * `data migrate` after a cloud deploy. Each is idempotent, with a marker; one list, so neither path
 * can leave one out.
 */
export async function runMigrations(deps: {
  table: Table;
  clock: Clock;
  logger: Logger;
  tenants: Pick<TenantStore, 'listTenants'>;
  /** The deployment's due shard count, where new cells go. */
  dueShards: number;
}): Promise<MigrationSummary> {
  const common = { table: deps.table, clock: deps.clock, tenants: deps.tenants, logger: deps.logger };
  // Checks stored in the first layout move to the current one (the scheduler reads the due index).
  const checksMigrated = await migrateCheckItems(common);
  // Check states move from the tenant's partition to their check's (issue 78 point 5), before any
  // reader of states (the cells migration joins them); each move in one transaction with its due entry.
  const checkStatesMoved = await migrateStatePartitions(common);
  // Tenants written before the status counters get them (the API serves the board).
  const tenantsSeeded = await migrateStatusCounters(common);
  // Enabled pull checks stored before cells join cells.
  const checksMovedToCells = await migrateChecksToCells({ ...common, dueShards: deps.dueShards });
  // Id pointers stored before the search indexes get their keys (search_entities).
  const entityPointersNamed = await backfillSearchKeys(common);
  // Incidents and open pointers of the single tenant partition move to its shards (issue 35).
  let incidentsMoved = 0;
  for (const tenant of await deps.tenants.listTenants()) {
    incidentsMoved += await moveLegacyIncidents(deps.table, tenant.id);
  }
  // Entities aggregated before the worst check wins (issue 35) are aggregated again, counters moved.
  const entityAggregatesMoved = await migrateEntityAggregates(common);
  // Incidents resolved before they expired (issue 36) get their expiry, after the move to the shards.
  const incidentsGivenExpiry = await migrateIncidentExpiry(common);
  // Channels told of an entity before their last words were stored (issue 75) get them from the
  // delivery log: a recovery goes only to a channel whose word says the entity was not up.
  const toldWordsSeeded = await seedToldWords(common);
  // Built-in toolsets stored with earlier tool schemas get the current ones (issue 75: entity either way).
  const builtinSkillsUpgraded = await upgradeBuiltinSkills(common, BUILTIN_TOOLSETS);
  return {
    checks_migrated: checksMigrated,
    check_states_moved: checkStatesMoved,
    tenants_seeded: tenantsSeeded,
    checks_moved_to_cells: checksMovedToCells,
    entity_pointers_named: entityPointersNamed,
    incidents_moved_to_shards: incidentsMoved,
    entity_aggregates_moved: entityAggregatesMoved,
    incidents_given_expiry: incidentsGivenExpiry,
    told_words_seeded: toldWordsSeeded,
    builtin_skills_upgraded: builtinSkillsUpgraded,
  };
}
