import * as z from 'zod';
import { fieldDefinitionSchema } from '../../domain/catalog.ts';
import { STATE_RULES } from '../../domain/states.ts';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import { queryAll } from '../../store/items.ts';
import { tenantPk } from '../../store/partitions.ts';
import type { Condition, Table, UpdateOp, WriteOp } from '../../store/table.ts';

/**
 * The owner of the `blueprint` item (docs/data-model.md, Catalog): one item per blueprint in its
 * tenant's partition, carrying `entity_count` (the entity_limit_per_bp counter, kept by the entity
 * writes) and `version` (bumped by every change of `fields`).
 */

export const blueprintSchema = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  description: z.string(),
  fields: z.array(fieldDefinitionSchema),
  is_default: z.boolean(),
  /** The state rule of its entities that have none of their own; absent (written before it): `worst`. */
  state_rule: z.enum(STATE_RULES).optional(),
  created_at: z.string(),
  updated_at: z.string(),
  /** Internal: entities of this blueprint (the entity_limit_per_bp counter). */
  entity_count: z.number().int(),
  /** Internal: bumped by every change of `fields` (optimistic concurrency). */
  version: z.number().int(),
});
export type BlueprintRecord = z.infer<typeof blueprintSchema>;

interface BlueprintKey {
  tenant_id: string;
  slug: string;
}

const blueprints = defineItem({
  type: itemType('blueprint'),
  schema: blueprintSchema,
  key: (k: BlueprintKey) => ({ pk: tenantPk(k.tenant_id), sk: `BP#${k.slug}` }),
  keyOf: null,
  docKey: { tenant_id: '<tnt>', slug: '<slug>' },
});

const at = (tenantId: string, slug: string): BlueprintKey => ({ tenant_id: tenantId, slug });

/** One blueprint (consistent), or undefined. */
export function getBlueprint(
  table: Table,
  tenantId: string,
  slug: string,
): Promise<BlueprintRecord | undefined> {
  return blueprints.get(table, at(tenantId, slug), { consistent: true });
}

/** The tenant's blueprints (consistent), by slug. */
export async function listBlueprints(table: Table, tenantId: string): Promise<BlueprintRecord[]> {
  const items = await queryAll((cursor) =>
    table.query({
      pk: tenantPk(tenantId),
      sk: { op: 'beginsWith', prefix: 'BP#' },
      cursor,
      consistent: true,
    }),
  );
  return items.map((item) => blueprints.parse(item));
}

/** The put of a new blueprint; a blueprint of that slug already there fails it. */
export function blueprintCreatedOp(tenantId: string, record: BlueprintRecord): WriteOp {
  return blueprints.putAt(at(tenantId, record.slug), record, { kind: 'itemNotExists' });
}

/** The update that appends a field (`add version 1`), held by `condition`; `table.update` returns the item. */
export function blueprintFieldsOp(
  tenantId: string,
  slug: string,
  change: { fields: BlueprintRecord['fields']; updated_at: string },
  condition: Condition,
): UpdateOp {
  return blueprints.update(at(tenantId, slug), { set: change, add: { version: 1 }, condition });
}

/** The update of what a PUT changes (name, description, default flag), held by `condition`. */
export function blueprintChangedOp(
  tenantId: string,
  slug: string,
  change: Pick<BlueprintRecord, 'name' | 'description' | 'is_default' | 'updated_at' | 'state_rule'>,
  condition: Condition,
): WriteOp {
  // A new state rule bumps `version`: an entity created meanwhile (held on it) reads the rule again.
  const bump = change.state_rule !== undefined ? { add: { version: 1 } } : {};
  return blueprints.update(at(tenantId, slug), { set: change, condition, ...bump });
}

/** The write that takes the default flag off a blueprint whose tenant default moves elsewhere. */
export function clearDefaultFlagOp(tenantId: string, slug: string): WriteOp {
  return blueprints.update(at(tenantId, slug), {
    set: { is_default: false },
    condition: { kind: 'itemExists' },
  });
}

/** The delete of a blueprint, held by `condition` (its id, no entities, its default flag as read). */
export function blueprintDeletedOp(tenantId: string, slug: string, condition: Condition): WriteOp {
  return blueprints.delete(at(tenantId, slug), condition);
}

/** The blueprint's entity counter moved by `delta` (an entity created or deleted), held by `condition`. */
export function entityCountOp(tenantId: string, slug: string, delta: number, condition: Condition): WriteOp {
  return blueprints.update(at(tenantId, slug), { add: { entity_count: delta }, condition });
}

/** Holds while the blueprint's field definitions are the ones read (its `version`). */
export function blueprintUnchangedOp(tenantId: string, slug: string, version: number): WriteOp {
  return blueprints.conditionCheck(at(tenantId, slug), {
    kind: 'compare',
    attr: 'version',
    op: '=',
    value: version,
  });
}
