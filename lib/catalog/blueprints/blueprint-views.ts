import { type FieldDefinition, sortFields } from '../../domain/catalog.ts';
import { DEFAULT_STATE_RULE } from '../../domain/states.ts';
import type { BlueprintRecord } from './blueprint-items.ts';

/** The public view of a blueprint (its stored shape is blueprint-items.ts's). */

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
