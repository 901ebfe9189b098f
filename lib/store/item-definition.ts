import type { z } from 'zod';
import { type ItemType, stamp } from './item-type.ts';
import type { Condition, Item, Key, NewItem, Table, UpdateOp, WriteOp } from './table.ts';

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
export type NumericAttr<R> = {
  [A in keyof R]-?: NonNullable<R[A]> extends number ? A : never;
}[keyof R] &
  string;

interface SpecBase<R, K> {
  type: ItemType;
  /** The stored attributes besides the generic ones (keys, entity, schema_version, index keys, ttl). */
  schema: z.ZodType<R>;
  key(input: K): Key;
  /** The item's gsi1 entry, when it has one (sparse: absent keys keep it out of the index). */
  gsi1?(record: R): IndexKey | undefined;
  gsi2?(record: R): IndexKey | undefined;
  /** Expiry in epoch seconds (DynamoDB TTL), when the item expires. */
  ttl?(record: R): number | undefined;
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
export type DocKey<K> = { [P in keyof K]: K[P] extends string | number ? K[P] | string : K[P] };

/**
 * What an item type is defined by. `keyOf` is required when a record does not carry its key
 * input; `null` when its attributes do not hold the key at all (a counter, a lease slot, a
 * session's message): such an item is written with `putAt` or `upsert`, never `put`.
 */
export type ItemSpec<R, K> = SpecBase<R, K> &
  ([R] extends [K] ? { keyOf?: (record: R) => K } : { keyOf: ((record: R) => K) | null });

/** A typed update of one item: attributes of its schema only, numbers only for `add`. */
export interface ItemChange<R> {
  set?: { [A in keyof R]?: R[A] };
  add?: { [A in NumericAttr<R>]?: number };
  remove?: (keyof R & string)[];
  /** The record as the write leaves it: its index keys and ttl are set (or removed) to match. */
  reindex?: R;
  condition?: Condition;
}

export interface ItemDefinition<R, K> {
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
  item(record: R): NewItem;
  put(record: R, condition?: Condition): WriteOp;
  /** A put of an item whose record does not hold its key input (`keyOf: null`). */
  putAt(input: K, record: R, condition?: Condition): WriteOp;
  update(input: K, change: ItemChange<R>): UpdateOp;
  /** An update that may create the item: stamps it, so a created item has its type. */
  upsert(input: K, change: ItemChange<R>): UpdateOp;
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

export function defineItem<R, K>(spec: ItemSpec<R, K>): ItemDefinition<R, K> {
  const keyOf = (record: R): K => {
    if (spec.keyOf === null) throw new TypeError(`a ${spec.type.entity} item is written with putAt`);
    return spec.keyOf ? spec.keyOf(record) : (record as unknown as K);
  };
  const indexes = (['gsi1', 'gsi2'] as const).filter((name) => spec[name] !== undefined);
  ITEM_DEFINITIONS.push({
    entity: spec.type.entity,
    version: spec.type.version,
    // Placeholders stand in for number parts only here, where the key is rendered for the docs.
    key: spec.key(spec.docKey as K),
    indexes,
  });

  /** The index keys and ttl of `record`: what to set, and the attributes to remove. */
  const derived = (record: R): { set: Record<string, unknown>; remove: string[] } => {
    const set: Record<string, unknown> = {};
    const remove: string[] = [];
    for (const name of indexes) {
      const entry = spec[name]?.(record);
      const [pkAttr, skAttr] = INDEX_ATTRS[name];
      if (entry) {
        set[pkAttr] = entry.pk;
        set[skAttr] = entry.sk;
      } else remove.push(pkAttr, skAttr);
    }
    if (spec.ttl) {
      const ttl = spec.ttl(record);
      if (ttl === undefined) remove.push('ttl');
      else set.ttl = ttl;
    }
    return { set, remove };
  };

  const update = (input: K, change: ItemChange<R>, extra: Record<string, unknown>): UpdateOp => {
    const index = change.reindex === undefined ? { set: {}, remove: [] } : derived(change.reindex);
    const set = { ...extra, ...(change.set as Record<string, unknown> | undefined), ...index.set };
    const remove = [...(change.remove ?? []), ...index.remove];
    return {
      type: 'update',
      key: spec.key(input),
      ...(Object.keys(set).length > 0 ? { set } : {}),
      ...(remove.length > 0 ? { remove } : {}),
      ...(change.add ? { add: change.add as Record<string, number> } : {}),
      ...(change.condition ? { condition: change.condition } : {}),
    };
  };

  const itemAt = (input: K, record: R): NewItem => ({
    ...(record as Record<string, unknown>),
    ...derived(record).set,
    ...spec.key(input),
    ...stamp(spec.type),
  });

  return {
    type: spec.type,
    entity: spec.type.entity,
    key: spec.key,
    is: (item) => item.entity === spec.type.entity,
    parse: (item) => spec.schema.parse(item),
    parseAll: (items) =>
      items.filter((item) => item.entity === spec.type.entity).map((item) => spec.schema.parse(item)),
    item: (record) => itemAt(keyOf(record), record),
    put: (record, condition) => ({
      type: 'put',
      item: itemAt(keyOf(record), record),
      ...(condition ? { condition } : {}),
    }),
    putAt: (input, record, condition) => ({
      type: 'put',
      item: itemAt(input, record),
      ...(condition ? { condition } : {}),
    }),
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
