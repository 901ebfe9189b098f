import * as z from 'zod';
import { fieldValueSchema } from '../domain/field-values.ts';
import { SLUG } from '../domain/slug.ts';
import { isId } from '../platform/ids.ts';
import { defineItem } from '../store/item-definition.ts';
import { itemType } from '../store/item-type.ts';
import { batchGetAll, queryAll } from '../store/items.ts';
import type { PageSource } from '../store/paging.ts';
import { tenantPk } from '../store/partitions.ts';
import type { Condition, Item, Table, WriteOp } from '../store/table.ts';

/**
 * The owner of an entity's items (docs/data-model.md, Catalog): the `entity` item, keyed by its
 * blueprint and slug, and its id pointer (`entity_pointer`, ENTID#<ent_id>), written and deleted
 * together. The entity item also carries the checks engine's attributes (`state`, `check_states`,
 * `check_count`, `last_transition_id`), written with `entityChecksOp` in the checks' transactions.
 * The status board's index items that go with every state change are entity-state-index-items.ts's.
 */

const checkStateValue = z.enum(['unknown', 'up', 'down', 'degraded']);

/** The catalog's view of an entity item (what the API shows, plus its optimistic-lock `version`). */
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

/** The checks engine's attributes of the entity item. */
const checksPart = {
  /** All its checks: the check_limit_per_entity counter. */
  check_count: z.number().int().optional(),
  /** `{<chk_id>: unknown|up|down}` of its enabled checks: the aggregate `state` is computed from them. */
  check_states: z.record(z.string(), checkStateValue).optional(),
  /** The entity transition that set `state` (absent before the first one): the notifier tells a still-current alert by it. */
  last_transition_id: z.string().optional(),
};

/** The state part of an entity item: what the checks engine, the notifier and the status board read. */
export const entityStateSchema = entitySchema
  .pick({ id: true, name: true, blueprint_slug: true, slug: true, state: true, version: true })
  .extend(checksPart);
export type EntityState = z.infer<typeof entityStateSchema>;

interface EntityKey {
  tenant_id: string;
  blueprint_slug: string;
  slug: string;
}

const entities = defineItem({
  type: itemType('entity'),
  schema: entitySchema.extend(checksPart),
  key: (k: EntityKey) => ({ pk: tenantPk(k.tenant_id), sk: `ENT#${k.blueprint_slug}#${k.slug}` }),
  keyOf: null,
  docKey: { tenant_id: '<tnt>', blueprint_slug: '<bp_slug>', slug: '<slug>' },
});

const pointers = defineItem({
  type: itemType('entity_pointer'),
  schema: z.object({ id: z.string(), blueprint_slug: z.string(), slug: z.string() }),
  key: (k: { tenant_id: string; id: string }) => ({ pk: tenantPk(k.tenant_id), sk: `ENTID#${k.id}` }),
  keyOf: null,
  docKey: { tenant_id: '<tnt>', id: '<ent_id>' },
});

const at = (tenantId: string, entity: { blueprint_slug: string; slug: string }): EntityKey => ({
  tenant_id: tenantId,
  blueprint_slug: entity.blueprint_slug,
  slug: entity.slug,
});
const versionHeld = (version: number): Condition => ({
  kind: 'compare',
  attr: 'version',
  op: '=',
  value: version,
});

/** Reads an entity's item (consistent), unparsed: for callers that need its state only sometimes. */
export function readEntityItem(
  table: Table,
  tenantId: string,
  blueprintSlug: string,
  slug: string,
): Promise<Item | undefined> {
  return table.get(entities.key(at(tenantId, { blueprint_slug: blueprintSlug, slug })), { consistent: true });
}

/** The state part of an entity item. */
export function parseEntityState(item: Item): EntityState {
  return entityStateSchema.parse(item);
}

/** Reads the state part of an entity item (consistent). */
export async function readEntityState(
  table: Table,
  tenantId: string,
  blueprintSlug: string,
  slug: string,
): Promise<EntityState | undefined> {
  const item = await readEntityItem(table, tenantId, blueprintSlug, slug);
  return item ? parseEntityState(item) : undefined;
}

/** The entity (consistent), or undefined; slugs that cannot exist are not read. */
export async function getEntity(
  table: Table,
  tenantId: string,
  blueprintSlug: string,
  slug: string,
): Promise<EntityRecord | undefined> {
  if (!SLUG.test(blueprintSlug) || !SLUG.test(slug)) return undefined;
  const item = await readEntityItem(table, tenantId, blueprintSlug, slug);
  return item ? entitySchema.parse(item) : undefined;
}

/** The entity with this id in this tenant (id pointer, then record), or undefined. */
export async function getEntityById(
  table: Table,
  tenantId: string,
  entityId: string,
): Promise<EntityRecord | undefined> {
  if (!isId('ent', entityId)) return undefined;
  const pointer = await pointers.get(table, { tenant_id: tenantId, id: entityId }, { consistent: true });
  const entity = pointer && (await getEntity(table, tenantId, pointer.blueprint_slug, pointer.slug));
  return entity?.id === entityId ? entity : undefined;
}

/** The state part of the entity with this id (consistent), or undefined when it is gone. */
export async function readEntityById(
  table: Table,
  tenantId: string,
  entityId: string,
): Promise<EntityState | undefined> {
  const pointer = await pointers.get(table, { tenant_id: tenantId, id: entityId }, { consistent: true });
  if (!pointer) return undefined;
  const entity = await readEntityState(table, tenantId, pointer.blueprint_slug, pointer.slug);
  return entity?.id === entityId ? entity : undefined;
}

/** The sort-key prefix of the tenant's entity items, or of one blueprint's. */
const entityPrefix = (blueprintSlug?: string) => (blueprintSlug ? `ENT#${blueprintSlug}#` : 'ENT#');

/** Entities of one blueprint (consistent), by slug. */
export async function listEntities(
  table: Table,
  tenantId: string,
  blueprintSlug: string,
): Promise<EntityRecord[]> {
  const items = await queryAll((cursor) =>
    table.query({
      pk: tenantPk(tenantId),
      sk: { op: 'beginsWith', prefix: entityPrefix(blueprintSlug) },
      cursor,
      consistent: true,
    }),
  );
  return items.map((item) => entitySchema.parse(item));
}

/** The state part of every entity of the tenant (consistent, unbounded: the status migration). */
export async function listEntityStates(table: Table, tenantId: string): Promise<EntityState[]> {
  const items = await queryAll(
    (cursor) =>
      table.query({
        pk: tenantPk(tenantId),
        sk: { op: 'beginsWith', prefix: 'ENT#' },
        cursor,
        consistent: true,
      }),
    Number.MAX_SAFE_INTEGER,
  );
  return items.map(parseEntityState);
}

/** Which of `entityIds` still exist in this tenant (id pointers, read in batches of 100). */
export async function existingEntityIds(
  table: Table,
  tenantId: string,
  entityIds: readonly string[],
): Promise<Set<string>> {
  const keys = [...new Set(entityIds)].map((id) => pointers.key({ tenant_id: tenantId, id }));
  return new Set((await batchGetAll(table, keys)).map((item) => pointers.parse(item).id));
}

/** The state part of the entities with these ids still in the tenant (a status page's; batched, eventually consistent). */
export async function readEntityStatesByIds(table: Table, tenantId: string, ids: readonly string[]) {
  const keys = [...new Set(ids)].map((id) => pointers.key({ tenant_id: tenantId, id }));
  const found = (await batchGetAll(table, keys)).map((item) => pointers.parse(item));
  const entityKeys = found.map((p) => entities.key(at(tenantId, p)));
  const states = (await batchGetAll(table, entityKeys)).map(parseEntityState);
  return states.filter((entity) => ids.includes(entity.id));
}

/** The paged list of the tenant's entity items (or one blueprint's), for sealed cursors. */
export function entityListSource(tenantId: string, blueprintSlug?: string): PageSource {
  return { pk: tenantPk(tenantId), prefix: entityPrefix(blueprintSlug) };
}

/** One read of `entityListSource` after the store cursor `cursor`: entity items, ascending (consistent). */
export function readEntityListChunk(
  table: Table,
  source: PageSource,
  page: { limit: number; cursor?: string | undefined },
): Promise<{ items: Item[]; cursor?: string }> {
  return table.query({
    pk: source.pk,
    sk: { op: 'beginsWith', prefix: source.prefix },
    limit: page.limit,
    cursor: page.cursor,
    consistent: true,
  });
}

/** The entity items of these entities that exist (consistent batch reads), unparsed. */
export function readEntityItems(
  table: Table,
  tenantId: string,
  refs: readonly { blueprint_slug: string; slug: string }[],
): Promise<Item[]> {
  return batchGetAll(
    table,
    refs.map((ref) => entities.key(at(tenantId, ref))),
  );
}

/** The puts of a new entity and its id pointer; an entity of that slug already there fails op 0. */
export function entityCreatedOps(tenantId: string, entity: EntityRecord): WriteOp[] {
  return [
    entities.putAt(at(tenantId, entity), entity, { kind: 'itemNotExists' }),
    pointers.putAt(
      { tenant_id: tenantId, id: entity.id },
      { id: entity.id, blueprint_slug: entity.blueprint_slug, slug: entity.slug },
      { kind: 'itemNotExists' },
    ),
  ];
}

/** The update of a merge patch (name, fields), held on the version read. */
export function entityPatchedOp(
  tenantId: string,
  entity: EntityRecord,
  change: Pick<EntityRecord, 'name' | 'fields' | 'updated_at'>,
): WriteOp {
  return entities.update(at(tenantId, entity), {
    set: change,
    add: { version: 1 },
    condition: versionHeld(entity.version),
  });
}

/** The deletes of an entity (held on the version read: its status counter is the state read) and its pointer. */
export function entityDeletedOps(tenantId: string, entity: EntityRecord): WriteOp[] {
  return [
    entities.delete(at(tenantId, entity), versionHeld(entity.version)),
    pointers.delete({ tenant_id: tenantId, id: entity.id }),
  ];
}

/** Holds while the entity exists with this id (its pointer): a relation's ends. */
export function entityExistsOp(tenantId: string, entityId: string): WriteOp {
  return pointers.conditionCheck({ tenant_id: tenantId, id: entityId }, { kind: 'itemExists' });
}

/** Holds while the entity is at the version read (the status migration's entries). */
export function entityUnchangedOp(tenantId: string, entity: EntityState): WriteOp {
  return entities.conditionCheck(at(tenantId, entity), versionHeld(entity.version));
}

/** What a check write changes on its entity item; without `condition` (e.g. a plan limit) it must exist. */
export interface EntityChecksChange {
  state: EntityState['state'];
  checkStates: Record<string, 'unknown' | 'up' | 'down' | 'degraded'>;
  /** The entity transition that moved `state`, when it moved. */
  lastTransitionId?: string | undefined;
  /** check_count change: check create (+1) and delete (-1). */
  countDelta?: number | undefined;
  condition?: Condition | undefined;
}

/** The entity update of a check write: its state and check states, held on the version read. */
export function entityChecksOp(tenantId: string, entity: EntityState, change: EntityChecksChange): WriteOp {
  const held = versionHeld(entity.version);
  return entities.update(at(tenantId, entity), {
    set: {
      state: change.state,
      check_states: change.checkStates,
      ...(change.lastTransitionId !== undefined ? { last_transition_id: change.lastTransitionId } : {}),
    },
    add: { version: 1, ...(change.countDelta ? { check_count: change.countDelta } : {}) },
    condition: { kind: 'and', conditions: [held, change.condition ?? { kind: 'itemExists' }] },
  });
}
