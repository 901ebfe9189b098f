import { z } from 'zod';
import { type FieldDefinition, fieldDefinitionSchema, sortFields } from '../domain/blueprint-fields.ts';
import { fieldValueSchema } from '../domain/field-values.ts';

/** Stored shapes of catalog items, parsed on every read, and the public views built from them. */

export const RELATION_TYPES = ['depends_on', 'part_of', 'connects_to', 'owned_by'] as const;
export type RelationType = (typeof RELATION_TYPES)[number];

/** The catalog's attributes on the tenant item: limits (set by the operator) and counters (kept here). */
export const tenantCatalogSchema = z.object({
  blueprint_limit: z.number().int(),
  entity_limit_per_bp: z.number().int(),
  blueprint_count: z.number().int().optional(),
  default_blueprint: z.string().optional(),
  relation_graph_version: z.number().int().optional(),
});
export type TenantCatalog = z.infer<typeof tenantCatalogSchema>;

export const blueprintSchema = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  description: z.string(),
  fields: z.array(fieldDefinitionSchema),
  is_default: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
  /** Internal: entities of this blueprint (the entity_limit_per_bp counter). */
  entity_count: z.number().int(),
  /** Internal: bumped by every change of `fields` (optimistic concurrency). */
  version: z.number().int(),
});
export type BlueprintRecord = z.infer<typeof blueprintSchema>;

export const entitySchema = z.object({
  id: z.string(),
  blueprint_slug: z.string(),
  slug: z.string(),
  name: z.string(),
  fields: z.record(z.string(), fieldValueSchema),
  state: z.enum(['up', 'degraded', 'down', 'unknown']),
  created_at: z.string(),
  updated_at: z.string(),
  version: z.number().int(),
});
export type EntityRecord = z.infer<typeof entitySchema>;

export const entityPointerSchema = z.object({ id: z.string(), blueprint_slug: z.string(), slug: z.string() });

export const relationSchema = z.object({
  id: z.string(),
  from_entity_id: z.string(),
  to_entity_id: z.string(),
  relation_type: z.enum(RELATION_TYPES),
  created_at: z.string(),
});
export type RelationRecord = z.infer<typeof relationSchema>;

export const purgeJobSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('entity'),
    tenant_id: z.string(),
    entity_id: z.string(),
    round: z.number().int(),
  }),
  z.object({
    kind: z.literal('partition'),
    tenant_id: z.string(),
    partition: z.string(),
    round: z.number().int(),
  }),
  z.object({
    kind: z.literal('action'),
    tenant_id: z.string(),
    action_id: z.string(),
    round: z.number().int(),
  }),
]);
export type PurgeJob = z.infer<typeof purgeJobSchema>;

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
    created_at: bp.created_at,
    updated_at: bp.updated_at,
  };
}

/** An entity as returned (the caller passes fields with read-time defaults filled). */
export function publicEntity(entity: EntityRecord, fields: EntityRecord['fields']) {
  return {
    id: entity.id,
    blueprint_slug: entity.blueprint_slug,
    slug: entity.slug,
    name: entity.name,
    fields,
    state: entity.state,
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
