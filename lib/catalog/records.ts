import { type FieldDefinition, sortFields } from '../domain/catalog.ts';
import { DEFAULT_STATE_RULE } from '../domain/states.ts';
import type { BlueprintRecord } from './blueprint-items.ts';
import type { EntityRecord } from './entity-items.ts';
import type { RelationRecord } from './relation-items.ts';

/**
 * The public views of the catalog's records (the stored shapes are their owner modules':
 * blueprint-items.ts, entity-items.ts, relation-items.ts; the catalog's attributes of the tenant
 * item are lib/auth/tenant-items.ts's).
 */

/** A field definition without absent optional keys (as stored and returned). */
export function plainField(def: FieldDefinition): FieldDefinition {
  return {
    name: def.name,
    field_type: def.field_type,
    required: def.required,
    ...(def.default_value !== undefined ? { default_value: def.default_value } : {}),
    sort_order: def.sort_order,
  };
}

/** A blueprint as returned: fields in display order, internal counters left out. */
export function publicBlueprint(bp: BlueprintRecord) {
  return {
    id: bp.id,
    slug: bp.slug,
    name: bp.name,
    description: bp.description,
    fields: sortFields(bp.fields).map(plainField),
    is_default: bp.is_default,
    state_rule: bp.state_rule ?? DEFAULT_STATE_RULE,
    entity_count: bp.entity_count,
    created_at: bp.created_at,
    updated_at: bp.updated_at,
  };
}

/**
 * An entity as returned (the caller passes fields with read-time defaults filled, and whether a
 * maintenance window covers it now).
 */
export function publicEntity(
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

/** A relation as returned (relations are immutable: created_at only). */
export function publicRelation(rel: RelationRecord) {
  return {
    id: rel.id,
    from_entity_id: rel.from_entity_id,
    to_entity_id: rel.to_entity_id,
    relation_type: rel.relation_type,
    created_at: rel.created_at,
  };
}
