import { aggregatesMarker, listBlueprints } from '../../catalog/blueprints.ts';
import { listEntityStates } from '../../catalog/entities.ts';
import { DEFAULT_STATE_RULE } from '../../domain/states.ts';
import { type MigrationDeps, runMarkedMigration } from '../../store/marked-migration.ts';
import { applyStateRule } from '../definitions/entity-restate.ts';

/**
 * Issue 35 changed how an entity's state is aggregated (the worst check wins; `all_down` is the
 * earlier rule, by choice). Entities stored before it were aggregated by the earlier rule: an
 * entity with one check down and one up is stored `degraded`. This re-aggregates every stored
 * entity by its rule (its own, else its blueprint's; `worst` where neither is set) and stores the
 * rule it applied, one transaction per entity that moves: the entity, its transition (reason
 * `state rule changed`) and the tenant's status counters and state index (stateMoveOps), held on
 * the entity's version (retried). Idempotent: an entity already at its rule and state is not
 * written, and the marker written at the end makes later runs read only it.
 */
export function migrateEntityAggregates(deps: MigrationDeps): Promise<number> {
  const { table } = deps;
  return runMarkedMigration(deps, {
    marker: aggregatesMarker,
    message: 'entity aggregates migrated',
    field: 'entities_moved',
    perTenant: async (tenant) => {
      const rules = new Map((await listBlueprints(table, tenant.id)).map((bp) => [bp.slug, bp.state_rule]));
      let moved = 0;
      for (const entity of await listEntityStates(table, tenant.id)) {
        const outcome = await applyStateRule(deps, {
          tenantId: tenant.id,
          bpSlug: entity.blueprint_slug,
          slug: entity.slug,
          ruleOf: (e) => e.state_rule ?? rules.get(e.blueprint_slug) ?? DEFAULT_STATE_RULE,
          nowMs: deps.clock.now(),
          retentionDays: tenant.retention_days,
        });
        if (outcome === 'moved') moved += 1;
      }
      return moved;
    },
  });
}
