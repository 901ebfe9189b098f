import {
  checkStatesChange,
  type EntityPointer,
  type EntityRecord,
  type EntityState,
  entityChecksPart,
  entityPointerSchema,
  entitySchema,
  entityStateSchema,
} from '../../domain/catalog.ts';
import { SLUG } from '../../domain/formats.ts';
import { isId } from '../../platform/ids.ts';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import { batchGetAll, queryAll } from '../../store/items.ts';
import type { PageRequest, PageSource } from '../../store/paging.ts';
import { tenantItemKeys, tenantPk } from '../../store/partitions.ts';
import type { Condition, Item, QueryPage, Table, WriteOp } from '../../store/table.ts';

/**
 * The owner of an entity's items (docs/data-model.md, Catalog; attributes: domain/entity-record.ts):
 * the `entity` item (by blueprint and slug) and its id pointer (`entity_pointer`, ENTID#<ent_id>,
 * with the name: search_entities' indexes; state changes never write it). The entity item carries
 * the checks engine's attributes too, written with `entityChecksOp` (entity-check-states.ts).
 */

export type { EntityPointer, EntityRecord, EntityState } from '../../domain/catalog.ts';
export { entitySchema } from '../../domain/catalog.ts';

type EntityKey = { tenant_id: string; blueprint_slug: string; slug: string };
type Ref = Pick<EntityKey, 'blueprint_slug' | 'slug'>; // where an entity item is within its tenant

/** What a name is found by: lowercased, cut to 200 characters (an index key holds at most 1,024 bytes). */
const searchText = (text: string): string => text.toLowerCase().slice(0, 200);
/** search_entities' indexes on the pointer (docs/data-model.md): by lowercased name (gsi1), by slug (gsi2). */
const byName = (tnt: string, name: string, id: string) => ({
  pk: `ENTNAME#${tnt}`,
  sk: `${searchText(name)}#${id}`,
});
const bySlug = (tnt: string, slug: string, bpSlug: string) => ({
  pk: `ENTSLUG#${tnt}`,
  sk: `${slug}#${bpSlug}`,
});

const entities = defineItem({
  type: itemType('entity'),
  schema: entitySchema.extend(entityChecksPart),
  key: (k: EntityKey) => ({ pk: tenantPk(k.tenant_id), sk: `ENT#${k.blueprint_slug}#${k.slug}` }),
  keyOf: null,
  docKey: { tenant_id: '<tnt>', blueprint_slug: '<bp_slug>', slug: '<slug>' },
});

const pointers = defineItem({
  type: itemType('entity_pointer'),
  schema: entityPointerSchema,
  ...tenantItemKeys('ENTID#', '<ent_id>'),
  keyOf: null,
  gsi1: (r, c: { tenant_id: string }) => (r.name === undefined ? null : byName(c.tenant_id, r.name, r.id)),
  gsi2: (r, c) => (r.name === undefined ? null : bySlug(c.tenant_id, r.slug, r.blueprint_slug)),
});

const at = (tenant_id: string, { blueprint_slug, slug }: Ref) => ({ tenant_id, blueprint_slug, slug });
const versionHeld = (value: number): Condition => ({ kind: 'compare', attr: 'version', op: '=', value });

/** Reads an entity's item (consistent), unparsed: for callers that need its state only sometimes. */
export function readEntityItem(
  table: Table,
  tenantId: string,
  bpSlug: string,
  slug: string,
): Promise<Item | undefined> {
  return table.get(entities.key(at(tenantId, { blueprint_slug: bpSlug, slug })), { consistent: true });
}

/** The state part of an entity item. */
export const parseEntityState = (item: Item): EntityState => entityStateSchema.parse(item);

/** Reads the state part of an entity item (consistent). */
export async function readEntityState(
  table: Table,
  tenantId: string,
  bpSlug: string,
  slug: string,
): Promise<EntityState | undefined> {
  const item = await readEntityItem(table, tenantId, bpSlug, slug);
  return item ? parseEntityState(item) : undefined;
}

/** The entity (consistent), or undefined; slugs that cannot exist are not read. */
export async function getEntity(
  table: Table,
  tenantId: string,
  bpSlug: string,
  slug: string,
): Promise<EntityRecord | undefined> {
  if (!SLUG.test(bpSlug) || !SLUG.test(slug)) return undefined;
  const item = await readEntityItem(table, tenantId, bpSlug, slug);
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

// The sort-key prefix of the tenant's entity items, or of one blueprint's.
const entityPrefix = (blueprintSlug?: string) => (blueprintSlug ? `ENT#${blueprintSlug}#` : 'ENT#');

/** Every entity item of the tenant's or of one blueprint's (consistent), by slug; at most `max`. */
const allItems = (table: Table, tenantId: string, prefix: string, max?: number): Promise<Item[]> =>
  queryAll((cursor) => {
    const sk = { op: 'beginsWith', prefix } as const;
    return table.query({ pk: tenantPk(tenantId), sk, cursor, consistent: true });
  }, max);

/** Entities of one blueprint (consistent), by slug. */
export async function listEntities(table: Table, tenantId: string, bpSlug: string): Promise<EntityRecord[]> {
  return (await allItems(table, tenantId, entityPrefix(bpSlug))).map((item) => entitySchema.parse(item));
}

/** The state part of every entity of the tenant (consistent, unbounded: the status migration). */
export async function listEntityStates(table: Table, tenantId: string): Promise<EntityState[]> {
  return (await allItems(table, tenantId, 'ENT#', Number.MAX_SAFE_INTEGER)).map(parseEntityState);
}

/** Every id pointer of the tenant (consistent, unbounded: the search keys' backfill). */
export async function listEntityPointers(table: Table, tenantId: string): Promise<EntityPointer[]> {
  return (await allItems(table, tenantId, 'ENTID#', Number.MAX_SAFE_INTEGER)).map(pointers.parse);
}

/** The id pointers of the entities with these ids still in the tenant (batches of 100, eventually consistent). */
export async function readEntityPointers(table: Table, tenantId: string, ids: readonly string[]) {
  const keys = [...new Set(ids)].map((id) => pointers.key({ tenant_id: tenantId, id }));
  return (await batchGetAll(table, keys)).map(pointers.parse);
}

/** Which of `ids` still exist in this tenant. */
export async function existingEntityIds(table: Table, tenantId: string, ids: readonly string[]) {
  return new Set((await readEntityPointers(table, tenantId, ids)).map((pointer) => pointer.id));
}

/** The paged list of the tenant's entity items (or one blueprint's), for sealed cursors. */
export function entityListSource(tenantId: string, blueprintSlug?: string): PageSource {
  return { pk: tenantPk(tenantId), prefix: entityPrefix(blueprintSlug) };
}

/** One read of `entityListSource` (consistent) or `entitySearchSource` (an index) after `cursor`, ascending. */
export function readEntityListChunk(table: Table, source: PageSource, page: PageRequest): Promise<QueryPage> {
  return table.query({
    ...(source.index ? { index: source.index } : { consistent: true }),
    pk: source.pk,
    sk: { op: 'beginsWith', prefix: source.prefix },
    limit: page.limit,
    cursor: page.cursor,
  });
}

/** The entity items of these entities that exist (consistent batch reads), unparsed. */
export function readEntityItems(table: Table, tenantId: string, refs: readonly Ref[]): Promise<Item[]> {
  return batchGetAll(
    table,
    refs.map((ref) => entities.key(at(tenantId, ref))),
  );
}

/** The puts of a new entity and its id pointer; an entity of that slug already there fails op 0. */
export function entityCreatedOps(
  tenantId: string,
  entity: EntityRecord & Pick<EntityState, 'applied_state_rule'>,
) {
  return [
    entities.putAt(at(tenantId, entity), entity, { kind: 'itemNotExists' }),
    pointers.putAt(
      { tenant_id: tenantId, id: entity.id },
      { id: entity.id, blueprint_slug: entity.blueprint_slug, slug: entity.slug, name: entity.name },
      { kind: 'itemNotExists' },
      { tenant_id: tenantId },
    ),
  ];
}

/** The pointer `entity` has with the name `name`: its attributes and both index entries. */
const namedPointerChange = (tenantId: string, entity: EntityPointer, name: string) => ({
  set: { name },
  reindex: { id: entity.id, blueprint_slug: entity.blueprint_slug, slug: entity.slug, name },
  context: { tenant_id: tenantId },
});

/** The update of a merge patch (name, fields), held on the version read; a new name also moves the pointer. */
export function entityPatchedOps(
  tenantId: string,
  entity: EntityRecord,
  change: Pick<EntityRecord, 'name' | 'fields' | 'updated_at' | 'state_rule'>,
): WriteOp[] {
  const held = entities.update(at(tenantId, entity), {
    set: change,
    add: { version: 1 },
    condition: versionHeld(entity.version),
  });
  if (change.name === entity.name) return [held];
  // The entity update is version-held, so the pointer (unconditional) changes only with it.
  const pointer = { tenant_id: tenantId, id: entity.id };
  return [held, pointers.update(pointer, namedPointerChange(tenantId, entity, change.name))];
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
  /** The enabled checks' states after the change: only the entries that differ are written. */
  checkStates: Record<string, 'unknown' | 'up' | 'down' | 'degraded'>;
  /** The entity transition that moved `state`, when it moved. */
  lastTransitionId?: string | undefined;
  /** check_count change: check create (+1) and delete (-1). */
  countDelta?: number | undefined;
  condition?: Condition | undefined;
  /** A new applied state rule, and the entity's own attributes a rule change writes with it (a PUT). */
  rule?: NonNullable<EntityState['applied_state_rule']> | undefined;
  patch?: Partial<Pick<EntityRecord, 'name' | 'fields' | 'updated_at' | 'state_rule'>> | undefined;
  /**
   * A check leaving the aggregate that yields it to the state writes (issue 75): its entries and
   * count only, held on existence, the version bumped (a state write that read before reads again)
   * but not held on; the caller re-aggregates after (lib/checks/definitions/check-aggregate.ts).
   */
  yieldAggregate?: boolean | undefined;
}

/**
 * The entity update of a check write. `check_states` is written entry by entry (the whole map only
 * while the item has none), so writers of different checks keep each other's entries. A write that
 * can move the aggregate (a known check state, the state, the rule) sets the state, held on and
 * bumping the version; one that changes only unknown checks' entries (a create) moves nothing and
 * holds on the item's existence and `condition` only, so Vigil's state moves never make it fail.
 */
export function entityChecksOp(tenantId: string, entity: EntityState, change: EntityChecksChange): WriteOp {
  const key = at(tenantId, entity);
  const { set, remove, movesAggregate } = checkStatesChange(entity.check_states, change.checkStates);
  const fresh = entity.check_states === undefined;
  const states = fresh ? { set: { check_states: change.checkStates } } : {};
  const entries = !fresh && (remove.length > 0 || Object.keys(set).length > 0);
  const held: Condition[] = [
    { kind: 'itemExists' },
    ...(change.condition ? [change.condition] : []),
    { kind: fresh ? 'attrNotExists' : 'attrExists', attr: 'check_states' },
  ];
  const count = change.countDelta ? { check_count: change.countDelta } : {};
  const { state, lastTransitionId: transition, rule, patch } = change;
  const moves = movesAggregate || state !== entity.state || transition || rule || patch;
  const write = { ...(entries ? { entries: { check_states: { set, remove } } } : {}) };
  if (change.yieldAggregate) {
    const condition: Condition = { kind: 'and', conditions: held };
    return entities.update(key, { ...states, ...write, add: { version: 1, ...count }, condition });
  }
  if (!moves) {
    const condition: Condition = { kind: 'and', conditions: held };
    if (!fresh && !entries && !change.countDelta) return entities.conditionCheck(key, condition);
    return entities.update(key, { ...states, ...write, add: count, condition });
  }
  return entities.update(key, {
    set: {
      ...patch,
      state,
      ...states.set,
      ...(transition !== undefined ? { last_transition_id: transition } : {}),
      ...(rule !== undefined ? { applied_state_rule: rule } : {}),
    },
    ...write,
    add: { version: 1, ...count },
    condition: { kind: 'and', conditions: [versionHeld(entity.version), ...held] },
  });
}

/** A search index's list (search_entities): names (gsi1, lowercased) or slugs (gsi2) starting with `prefix`. */
export function entitySearchSource(tenantId: string, by: 'name' | 'slug', prefix: string): PageSource {
  return by === 'name'
    ? { index: 'gsi1', pk: byName(tenantId, '', '').pk, prefix: searchText(prefix) }
    : { index: 'gsi2', pk: bySlug(tenantId, '', '').pk, prefix };
}

/** An id pointer read from a search index. */
export const parseEntityPointer = (item: Item): EntityPointer => pointers.parse(item);

/**
 * The backfill of a pointer written before the search indexes (no `name`): its name and index entries,
 * held on what was read (a pointer still unnamed: a rename or a delete since wins; the entity as read).
 */
export function pointerNamedOps(tenantId: string, pointer: EntityPointer, name: string): WriteOp[] {
  const unnamed: Condition = {
    kind: 'and',
    conditions: [{ kind: 'itemExists' }, { kind: 'attrNotExists', attr: 'name' }],
  };
  const same = (attr: string, value: string): Condition => ({ kind: 'compare', attr, op: '=', value });
  const asRead: Condition = { kind: 'and', conditions: [same('id', pointer.id), same('name', name)] };
  const change = { ...namedPointerChange(tenantId, pointer, name), condition: unnamed };
  return [
    pointers.update({ tenant_id: tenantId, id: pointer.id }, change),
    entities.conditionCheck(at(tenantId, pointer), asRead),
  ];
}
