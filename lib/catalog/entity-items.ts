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

const checkStateValue = z.enum(['unknown', 'up', 'down']);

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

/** search_entities' indexes (docs/data-model.md): by lowercased name (gsi1) and by slug (gsi2), per tenant. */
const byName = (tenantId: string, entity: Pick<EntityRecord, 'id' | 'name'>) => ({
  pk: `ENTNAME#${tenantId}`,
  sk: `${searchText(entity.name)}#${entity.id}`,
});
const bySlug = (tenantId: string, entity: Pick<EntityRecord, 'slug' | 'blueprint_slug'>) => ({
  pk: `ENTSLUG#${tenantId}`,
  sk: `${entity.slug}#${entity.blueprint_slug}`,
});
/** What a name is found by: lowercased, cut to 200 characters (an index key holds at most 1,024 bytes). */
export const searchText = (text: string) => text.toLowerCase().slice(0, 200);

const entities = defineItem({
  type: itemType('entity'),
  schema: entitySchema.extend(checksPart),
  key: (k: EntityKey) => ({ pk: tenantPk(k.tenant_id), sk: `ENT#${k.blueprint_slug}#${k.slug}` }),
  keyOf: null,
  gsi1: (r, c: { tenant_id: string }) => byName(c.tenant_id, r),
  gsi2: (r, c) => bySlug(c.tenant_id, r),
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
const versionHeld = (value: number): Condition => ({ kind: 'compare', attr: 'version', op: '=', value });

/** Reads an entity's item (consistent), unparsed: for callers that need its state only sometimes. */
export function readEntityItem(table: Table, tenantId: string, bpSlug: string, slug: string) {
  return table.get(entities.key(at(tenantId, { blueprint_slug: bpSlug, slug })), { consistent: true });
}

/** The state part of an entity item. */
export function parseEntityState(item: Item): EntityState {
  return entityStateSchema.parse(item);
}

/** Reads the state part of an entity item (consistent). */
export async function readEntityState(table: Table, tenantId: string, bpSlug: string, slug: string) {
  const item = await readEntityItem(table, tenantId, bpSlug, slug);
  return item ? parseEntityState(item) : undefined;
}

/** The entity (consistent), or undefined; slugs that cannot exist are not read. */
export async function getEntity(table: Table, tenantId: string, bpSlug: string, slug: string) {
  if (!SLUG.test(bpSlug) || !SLUG.test(slug)) return undefined;
  const item = await readEntityItem(table, tenantId, bpSlug, slug);
  return item ? entitySchema.parse(item) : undefined;
}

/** The entity with this id in this tenant (id pointer, then record), or undefined. */
export async function getEntityById(table: Table, tenantId: string, entityId: string) {
  if (!isId('ent', entityId)) return undefined;
  const pointer = await pointers.get(table, { tenant_id: tenantId, id: entityId }, { consistent: true });
  const entity = pointer && (await getEntity(table, tenantId, pointer.blueprint_slug, pointer.slug));
  return entity?.id === entityId ? entity : undefined;
}

/** The state part of the entity with this id (consistent), or undefined when it is gone. */
export async function readEntityById(table: Table, tenantId: string, entityId: string) {
  const pointer = await pointers.get(table, { tenant_id: tenantId, id: entityId }, { consistent: true });
  if (!pointer) return undefined;
  const entity = await readEntityState(table, tenantId, pointer.blueprint_slug, pointer.slug);
  return entity?.id === entityId ? entity : undefined;
}

/** The sort-key prefix of the tenant's entity items, or of one blueprint's. */
const entityPrefix = (blueprintSlug?: string) => (blueprintSlug ? `ENT#${blueprintSlug}#` : 'ENT#');

/** Every entity item of the tenant's or of one blueprint's (consistent), by slug; at most `max`. */
const allEntityItems = (table: Table, tenantId: string, blueprintSlug?: string, max?: number) =>
  queryAll((cursor) => {
    const sk = { op: 'beginsWith', prefix: entityPrefix(blueprintSlug) } as const;
    return table.query({ pk: tenantPk(tenantId), sk, cursor, consistent: true });
  }, max);

/** Entities of one blueprint (consistent), by slug. */
export async function listEntities(table: Table, tenantId: string, blueprintSlug: string) {
  return (await allEntityItems(table, tenantId, blueprintSlug)).map((item) => entitySchema.parse(item));
}

/** The entity items of the tenant (consistent, unbounded: the migrations), unparsed. */
export const listEntityItems = (table: Table, tenantId: string): Promise<Item[]> =>
  allEntityItems(table, tenantId, undefined, Number.MAX_SAFE_INTEGER);

/** The state part of every entity of the tenant (consistent, unbounded: the status migration). */
export async function listEntityStates(table: Table, tenantId: string): Promise<EntityState[]> {
  return (await listEntityItems(table, tenantId)).map(parseEntityState);
}

/** Which of `entityIds` still exist in this tenant (id pointers, read in batches of 100). */
export async function existingEntityIds(
  table: Table,
  tenantId: string,
  entityIds: readonly string[],
): Promise<Set<string>> {
  const unique = [...new Set(entityIds)];
  const found = new Set<string>();
  for (let i = 0; i < unique.length; i += 100) {
    const keys = unique.slice(i, i + 100).map((id) => pointers.key({ tenant_id: tenantId, id }));
    for (const item of await table.batchGet(keys)) found.add(pointers.parse(item).id);
  }
  return found;
}

/** The paged list of the tenant's entity items (or one blueprint's), for sealed cursors. */
export function entityListSource(tenantId: string, blueprintSlug?: string): PageSource {
  return { pk: tenantPk(tenantId), prefix: entityPrefix(blueprintSlug) };
}

/**
 * One read of `entityListSource` (consistent) or `entitySearchSource` (an index: eventually
 * consistent) after the store cursor `cursor`: entity items, ascending.
 */
export function readEntityListChunk(
  table: Table,
  source: PageSource,
  page: { limit: number; cursor?: string | undefined },
): Promise<{ items: Item[]; cursor?: string }> {
  return table.query({
    ...(source.index ? { index: source.index } : { consistent: true }),
    pk: source.pk,
    sk: { op: 'beginsWith', prefix: source.prefix },
    limit: page.limit,
    cursor: page.cursor,
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
    entities.putAt(at(tenantId, entity), entity, { kind: 'itemNotExists' }, { tenant_id: tenantId }),
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
    index: { gsi1: byName(tenantId, { id: entity.id, name: change.name }) },
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
  checkStates: Record<string, 'unknown' | 'up' | 'down'>;
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

/** A search index's list (search_entities): names (gsi1, lowercased) or slugs (gsi2) starting with `prefix`. */
export function entitySearchSource(tenantId: string, by: 'name' | 'slug', prefix: string): PageSource {
  return by === 'name'
    ? { index: 'gsi1', pk: byName(tenantId, { id: '', name: '' }).pk, prefix: searchText(prefix) }
    : { index: 'gsi2', pk: bySlug(tenantId, { slug: '', blueprint_slug: '' }).pk, prefix };
}

/** Whether an entity item is in the search indexes (items written before them are not, until the backfill). */
export const hasSearchKeys = (item: Item): boolean => item.gsi1pk !== undefined && item.gsi2pk !== undefined;

/** The backfill's update of an entity item written before the search indexes, held on the version read. */
export function entitySearchKeysOp(tenantId: string, entity: EntityState): WriteOp {
  return entities.update(at(tenantId, entity), {
    index: {
      gsi1: byName(tenantId, entity),
      gsi2: bySlug(tenantId, entity),
    },
    condition: versionHeld(entity.version),
  });
}
