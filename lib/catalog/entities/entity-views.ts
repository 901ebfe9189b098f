import { withDefaults } from '../../domain/catalog.ts';
import { DEFAULT_STATE_RULE } from '../../domain/states.ts';
import type { BlueprintRecord } from '../blueprints/blueprint-items.ts';
import type { EntityRecord } from './entity-items.ts';

/**
 * Which of a tenant's entities a maintenance window covers now: lib/maintenance's lookup, passed in
 * by the composition (the catalog cannot import it: maintenance builds on the catalog's relations).
 */
export type MaintenanceOf = (
  tenantId: string,
) => Promise<(entity: { id: string; blueprint_slug: string }) => Promise<unknown>>;

/** The entity as returned: fields in blueprint order, defaults filled for fields added after it was written. */
export function entityView(bp: BlueprintRecord, entity: EntityRecord, inMaintenance = false) {
  return publicEntity(entity, withDefaults(bp.fields, entity.fields), inMaintenance, bp.state_rule);
}

/** Entities of one blueprint as returned, each with `in_maintenance` (the tenant's windows read once). */
export async function entityViews(
  maintenance: MaintenanceOf | undefined,
  tenantId: string,
  bp: BlueprintRecord,
  list: EntityRecord[],
) {
  if (!maintenance || list.length === 0) return list.map((entity) => entityView(bp, entity));
  const covering = await maintenance(tenantId);
  const covered = await Promise.all(list.map(async (entity) => (await covering(entity)) !== undefined));
  return list.map((entity, i) => entityView(bp, entity, covered[i] ?? false));
}

/**
 * An entity as returned (the caller passes fields with read-time defaults filled, and whether a
 * maintenance window covers it now).
 */
function publicEntity(
  entity: EntityRecord,
  fields: EntityRecord['fields'],
  inMaintenance: boolean,
  blueprintRule: BlueprintRecord['state_rule'],
) {
  return {
    id: entity.id,
    blueprint_slug: entity.blueprint_slug,
    slug: entity.slug,
    name: entity.name,
    fields,
    state: entity.state,
    state_rule: entity.state_rule ?? null,
    effective_state_rule: entity.state_rule ?? blueprintRule ?? DEFAULT_STATE_RULE,
    in_maintenance: inMaintenance,
    created_at: entity.created_at,
    updated_at: entity.updated_at,
  };
}
