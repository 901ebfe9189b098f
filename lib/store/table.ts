/**
 * The single-table port. Repositories speak only this interface; SQL and DynamoDB expression
 * strings live inside the engines (`sqlite-table.ts`, `dynamodb-table.ts`).
 *
 * Semantics follow DynamoDB so code that works locally works in the cloud: at most 100 operations
 * per transaction, one operation per item per transaction, `update` upserts, conditions are
 * evaluated against the item as it was before the transaction.
 */

/** Every stored item: generic key names (electrodb style) and the item type in `entity`. */
export interface Item {
  pk: string;
  sk: string;
  entity: string;
  gsi1pk?: string;
  gsi1sk?: string;
  gsi2pk?: string;
  gsi2sk?: string;
  /**
   * The version of the item type's stored shape (see item-type.ts); absent on items written
   * before versions existed, which read as version 1.
   */
  schema_version?: number;
  /** Expiry time in epoch seconds (DynamoDB TTL attribute). */
  ttl?: number;
  [attr: string]: unknown;
}

/** An item as written: every put carries its schema version, so no new item lacks one. */
export type NewItem = Item & { schema_version: number };

export interface Key {
  pk: string;
  sk: string;
}

export type IndexName = 'gsi1' | 'gsi2';

export type Comparator = '=' | '<>' | '<' | '<=' | '>' | '>=';

/** Typed conditions; evaluated against the current item (absent item = no attributes). */
export type Condition =
  | { kind: 'itemExists' }
  | { kind: 'itemNotExists' }
  | { kind: 'attrExists'; attr: string }
  | { kind: 'attrNotExists'; attr: string }
  | { kind: 'compare'; attr: string; op: Comparator; value: string | number | boolean }
  | { kind: 'and'; conditions: Condition[] }
  | { kind: 'or'; conditions: Condition[] };

export type WriteOp =
  | { type: 'put'; item: NewItem; condition?: Condition }
  | {
      type: 'update';
      key: Key;
      /** Attributes to set (top-level names). */
      set?: Record<string, unknown>;
      /** Attributes to remove. */
      remove?: string[];
      /** Numeric attributes to add to (missing counts as 0). */
      add?: Record<string, number>;
      /**
       * Entries of map attributes to set or remove, by the map's name, the map's other entries left
       * as they are (so writers of different entries do not overwrite each other). The map must
       * exist: hold the write on `attrExists` (DynamoDB refuses an entry of an absent map).
       */
      entries?: Record<string, MapEntries>;
      condition?: Condition;
    }
  | { type: 'delete'; key: Key; condition?: Condition }
  | { type: 'conditionCheck'; key: Key; condition: Condition };

export type UpdateOp = Extract<WriteOp, { type: 'update' }>;

/** What an update does to the entries of one map attribute. */
export interface MapEntries {
  set?: Record<string, unknown>;
  remove?: string[];
}

export type SortKeyCondition =
  | { op: '=' | '<' | '<=' | '>' | '>='; value: string }
  | { op: 'between'; low: string; high: string }
  | { op: 'beginsWith'; prefix: string };

export interface QueryInput {
  /** Table (default) or a GSI. */
  index?: IndexName;
  /** Partition key value (pk, gsi1pk or gsi2pk). */
  pk: string;
  sk?: SortKeyCondition;
  /** Page size; at most 1000. */
  limit?: number;
  /** Opaque cursor from a previous page. */
  cursor?: string;
  /** Sort-key order; default ascending. */
  direction?: 'asc' | 'desc';
  /** Strongly consistent read (table only). */
  consistent?: boolean;
}

export interface QueryPage {
  items: Item[];
  /** Present when more items may follow. */
  cursor?: string;
}

export const MAX_TRANSACTION_OPS = 100;
export const MAX_QUERY_LIMIT = 1000;

/** A transaction or conditional write whose condition did not hold; `failed` lists op indexes. */
export class ConditionFailedError extends Error {
  override name = 'ConditionFailedError';
  readonly failed: number[];
  constructor(failed: number[], options?: { cause?: unknown }) {
    super(`condition failed for operation(s) ${failed.join(', ')}`, options);
    this.failed = failed;
  }
}

/** A write the engine refuses by shape (too many ops, the same item twice, a bad cursor). */
export class InvalidWriteError extends Error {
  override name = 'InvalidWriteError';
}

/** DynamoDB's item size limit; the sqlite engine holds items to the same bound (their JSON text). */
export const MAX_ITEM_BYTES = 400 * 1024;

/** A put or update whose item would exceed MAX_ITEM_BYTES: the same error from either engine. */
export class ItemTooLargeError extends InvalidWriteError {
  override name = 'ItemTooLargeError';
}

export interface Table {
  get(key: Key, options?: { consistent?: boolean }): Promise<Item | undefined>;
  /** Gets up to 100 items; missing ones are absent from the result (order not guaranteed). */
  batchGet(keys: Key[]): Promise<Item[]>;
  query(input: QueryInput): Promise<QueryPage>;
  /** All ops or none. Throws ConditionFailedError or InvalidWriteError. */
  transact(ops: WriteOp[]): Promise<void>;
  /** One update, returning the item after it (for counters). */
  update(op: UpdateOp): Promise<Item>;
  close(): Promise<void>;
}
