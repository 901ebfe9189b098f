import type { z } from 'zod';
import { type ItemType, stamp } from './item-type.ts';
import type { Condition, Item, Key, MapEntries, NewItem, Table, UpdateOp, WriteOp } from './table.ts';

/**
 * One stored item type, defined once by the module that owns it (electrodb's Entity, cut to what
 * this table needs): its `entity` name and schema version, the zod schema of its attributes, its
 * key and index keys, and its ttl. The owner module keeps the definition to itself and exports
 * named reads and typed write builders made with it; no other file builds the item's keys or
 * writes it raw (test/architecture/item-owners.test.ts). Every definition is listed in
 * `ITEM_DEFINITIONS`, from which docs/data-model.md's item rows are checked.
 */

/** An index entry of an item: its partition and sort key in gsi1 or gsi2. */
export interface IndexKey {
  pk: string;
  sk: string;
}

/** Attribute names of `R` whose values are numbers (what `add` may name). */
type NumericAttr<R> = {
  [A in keyof R]-?: NonNullable<R[A]> extends number ? A : never;
}[keyof R] &
  string;

/** The arguments that pass a definition's context `C` (see ItemSpec): none when it has none. */
type ContextArgs<C> = [C] extends [undefined] ? [] : [context: C];

interface SpecBase<R, K, C> {
  type: ItemType;
  /** The stored attributes besides the generic ones (keys, entity, schema_version, index keys, ttl). */
  schema: z.ZodType<R>;
  key(input: K): Key;
  /** The item's gsi1 entry, when it has one (sparse: absent keys keep it out of the index). */
  gsi1?(record: R, context: C): IndexKey | undefined | null;
  gsi2?(record: R, context: C): IndexKey | undefined | null;
  /** Indexes some writes enter with explicit entries (`index` of a change) besides `gsi1`/`gsi2`. */
  indexedExplicitly?: readonly ('gsi1' | 'gsi2')[];
  /** Expiry in epoch seconds (DynamoDB TTL), when the item expires. */
  ttl?(record: R, context: C): number | undefined;
  /**
   * The key input with placeholders (`{ tenant_id: '<tnt>', check_id: '<chk_id>' }`): the key it
   * gives is the pattern docs/data-model.md shows for the item.
   */
  docKey: DocKey<K>;
}

/**
 * A key input with placeholders: a number part (a slot, a sequence number) or one of a few fixed
 * words (`'KEY' | 'TENANT'`) may be a placeholder text too (`'<n, 4 digits>'`, `'<scope>'`), which
 * `key` renders as it renders the value.
 */
type DocKey<K> = { [P in keyof K]: K[P] extends string | number ? K[P] | string : K[P] };

/**
 * What an item type is defined by. `keyOf` is required when a record does not carry its key
 * input, and `null` when its attributes do not hold the key at all (a uniqueness item such as
 * `{user_id}` under `USEREMAIL#<email>`, a counter, a lease slot, an item of the tenant partition
 * whose record holds no tenant id): such an item is written with `putAt` (or `upsert`), never `put`.
 * `C` is the context of an item whose key, index keys or ttl depend on more than its stored
 * attributes (a deployment's due-index shard count, a tenant's retention, the queue a job is in):
 * the writes that place the item then take it too.
 */
export type ItemSpec<R, K, C = undefined> = SpecBase<R, K, C> &
  ([R] extends [K]
    ? { keyOf?: (record: R, context: C) => K }
    : { keyOf: ((record: R, context: C) => K) | null });

interface ChangeBase<R> {
  set?: { [A in keyof R]?: R[A] };
  add?: { [A in NumericAttr<R>]?: number };
  remove?: (keyof R & string)[];
  /** Entries of map attributes to set or remove, the others left as they are (the map must exist). */
  entries?: { [A in keyof R & string]?: MapEntries };
  /** The expiry to set (epoch seconds), for items whose ttl is not derived from the record (e.g. retention). */
  ttl?: number;
  /** Index entries to set (or, null, remove) on a partial change, which has no whole record to reindex. */
  index?: IndexEntries;
  condition?: Condition;
}

/** A typed update of one item: attributes of its schema only, numbers only for `add`. */
export type ItemChange<R, C = undefined> = ChangeBase<R> &
  ([C] extends [undefined]
    ? {
        /** The record as the write leaves it: its index keys and ttl are set (or removed) to match. */
        reindex?: R;
      }
    : { reindex?: undefined; context?: undefined } | { reindex: R; context: C });

/** Explicit index entries of a write: an entry, or null to take the item out of that index. */
interface IndexEntries {
  gsi1?: IndexKey | null;
  gsi2?: IndexKey | null;
}

export interface ItemDefinition<R, K, C = undefined> {
  readonly type: ItemType;
  readonly entity: string;
  key(input: K): Key;
  /** Whether a stored item is of this type. */
  is(item: Item): boolean;
  /** Parses a stored item with the schema (parse, don't assert). */
  parse(item: Item): R;
  /** Parses the items of this type among `items`, skipping others (a partition holds several types). */
  parseAll(items: readonly Item[]): R[];
  /** The item as stored: key, stamp, index keys, ttl and the record. */
  item(record: R, ...context: ContextArgs<C>): NewItem;
  /** The item as stored at the key of `input` (for records that do not carry their key input). */
  itemAt(input: K, record: R, ...context: ContextArgs<C>): NewItem;
  put(record: R, condition?: Condition, ...context: ContextArgs<C>): WriteOp;
  /** A put under the key of `input`, for records that do not carry their key input. */
  putAt(input: K, record: R, condition?: Condition, ...context: ContextArgs<C>): WriteOp;
  update(input: K, change: ItemChange<R, C>): UpdateOp;
  /** An update that may create the item: stamps it, so a created item has its type. */
  upsert(input: K, change: ItemChange<R, C>): UpdateOp;
  delete(input: K, condition?: Condition): WriteOp;
  conditionCheck(input: K, condition: Condition): WriteOp;
  get(table: Table, input: K, options?: { consistent?: boolean }): Promise<R | undefined>;
}

/** Every item type defined so far, by entity and key pattern (docs/data-model.md is checked against it). */
export const ITEM_DEFINITIONS: { entity: string; version: number; key: Key; indexes: string[] }[] = [];

const INDEX_ATTRS = {
  gsi1: ['gsi1pk', 'gsi1sk'],
  gsi2: ['gsi2pk', 'gsi2sk'],
} as const;

/** The attributes of explicit index entries: what to set, and what to remove. */
function explicitIndex(entries: IndexEntries | undefined): {
  set: Record<string, unknown>;
  remove: string[];
} {
  const set: Record<string, unknown> = {};
  const remove: string[] = [];
  for (const name of ['gsi1', 'gsi2'] as const) {
    const entry = entries?.[name];
    if (entry === undefined) continue;
    const [pkAttr, skAttr] = INDEX_ATTRS[name];
    if (entry === null) remove.push(pkAttr, skAttr);
    else Object.assign(set, { [pkAttr]: entry.pk, [skAttr]: entry.sk });
  }
  return { set, remove };
}

export function defineItem<R, K, C = undefined>(spec: ItemSpec<R, K, C>): ItemDefinition<R, K, C> {
  const keyOf = (record: R, context: C): K => {
    if (spec.keyOf === null)
      throw new TypeError(`a ${spec.type.entity} record does not carry its key: write it with putAt`);
    return spec.keyOf ? spec.keyOf(record, context) : (record as unknown as K);
  };
  const indexes = (['gsi1', 'gsi2'] as const).filter((name) => spec[name] !== undefined);
  ITEM_DEFINITIONS.push({
    entity: spec.type.entity,
    version: spec.type.version,
    // Placeholders stand in for number parts only here, where the key is rendered for the docs.
    key: spec.key(spec.docKey as K),
    indexes: [...new Set([...indexes, ...(spec.indexedExplicitly ?? [])])].sort(),
  });

  /** The index keys and ttl of `record`: what to set, and the attributes to remove. */
  const derived = (record: R, context: C): { set: Record<string, unknown>; remove: string[] } => {
    const set: Record<string, unknown> = {};
    const remove: string[] = [];
    for (const name of indexes) {
      const entry = spec[name]?.(record, context);
      const [pkAttr, skAttr] = INDEX_ATTRS[name];
      if (entry) {
        set[pkAttr] = entry.pk;
        set[skAttr] = entry.sk;
      } else remove.push(pkAttr, skAttr);
    }
    if (spec.ttl) {
      const ttl = spec.ttl(record, context);
      if (ttl === undefined) remove.push('ttl');
      else set.ttl = ttl;
    }
    return { set, remove };
  };

  const update = (input: K, change: ItemChange<R, C>, extra: Record<string, unknown>): UpdateOp => {
    const context = ('context' in change ? change.context : undefined) as C;
    const index = change.reindex === undefined ? { set: {}, remove: [] } : derived(change.reindex, context);
    const given = explicitIndex(change.index);
    const set = {
      ...extra,
      ...(change.set as Record<string, unknown> | undefined),
      ...index.set,
      ...given.set,
      ...(change.ttl !== undefined ? { ttl: change.ttl } : {}),
    };
    const remove = [...(change.remove ?? []), ...index.remove, ...given.remove];
    return {
      type: 'update',
      key: spec.key(input),
      ...(Object.keys(set).length > 0 ? { set } : {}),
      ...(remove.length > 0 ? { remove } : {}),
      ...(change.add ? { add: change.add as Record<string, number> } : {}),
      ...(change.entries ? { entries: change.entries as Record<string, MapEntries> } : {}),
      ...(change.condition ? { condition: change.condition } : {}),
    };
  };

  const itemAt = (input: K, record: R, context: C): NewItem => ({
    ...(record as Record<string, unknown>),
    ...derived(record, context).set,
    ...spec.key(input),
    ...stamp(spec.type),
  });
  const put = (item: NewItem, condition: Condition | undefined): WriteOp => ({
    type: 'put',
    item,
    ...(condition ? { condition } : {}),
  });

  return {
    type: spec.type,
    entity: spec.type.entity,
    key: spec.key,
    is: (item) => item.entity === spec.type.entity,
    parse: (item) => spec.schema.parse(item),
    parseAll: (items) =>
      items.filter((item) => item.entity === spec.type.entity).map((item) => spec.schema.parse(item)),
    item: (record, ...args) => itemAt(keyOf(record, args[0] as C), record, args[0] as C),
    itemAt: (input, record, ...args) => itemAt(input, record, args[0] as C),
    put: (record, condition, ...args) =>
      put(itemAt(keyOf(record, args[0] as C), record, args[0] as C), condition),
    putAt: (input, record, condition, ...args) => put(itemAt(input, record, args[0] as C), condition),
    update: (input, change) => update(input, change, {}),
    upsert: (input, change) => update(input, change, { ...stamp(spec.type) }),
    delete: (input, condition) => ({
      type: 'delete',
      key: spec.key(input),
      ...(condition ? { condition } : {}),
    }),
    conditionCheck: (input, condition) => ({ type: 'conditionCheck', key: spec.key(input), condition }),
    async get(table, input, options) {
      const item = await table.get(spec.key(input), options);
      return item ? spec.schema.parse(item) : undefined;
    },
  };
}
