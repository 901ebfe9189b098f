import type { DynamoDBRecord } from 'aws-lambda';
import type Database from 'better-sqlite3';
import { type Clock, systemClock } from '../platform/clock.ts';
import { encodeCursor, positionOf } from './cursor.ts';
import { asItem, parseStoredItem } from './item-schema.ts';
import { applyUpdate, evaluateCondition } from './sqlite-conditions.ts';
import { buildQuery } from './sqlite-query.ts';
import { type JsonObject, sameJson, sequenceNumber, serializeChange } from './sqlite-records.ts';
import { type ItemRow, migrate, toRow } from './sqlite-schema.ts';
import {
  ConditionFailedError,
  type Item,
  type Key,
  type QueryInput,
  type QueryPage,
  type Table,
  type UpdateOp,
  type WriteOp,
} from './table.ts';
import { opKey, uniqueKeys, validateOp, validateQuery, validateTransaction } from './validation.ts';

export { openSqliteDatabase } from './sqlite-schema.ts';

/** The sqlite engine: the Table port plus the local change-feed outbox and the TTL sweeper. */
export interface SqliteTable extends Table {
  /** The open database, shared with other local components (the durable queue); `close()` closes it. */
  readonly db: Database.Database;
  /** Outbox records after `afterSeq`, oldest first. */
  readChanges(afterSeq: number, limit: number): { seq: number; record: DynamoDBRecord }[];
  /** Drops outbox records up to and including `seq` (after they were handled). */
  deleteChangesThrough(seq: number): void;
  /** Calls `listener` after every commit that wrote outbox records; returns an unsubscribe function. */
  onCommit(listener: () => void): () => void;
  /** Deletes up to `limit` items whose ttl <= `nowSeconds`, recording TTL-style REMOVE records; returns the count. */
  sweepExpired(nowSeconds: number, limit: number): number;
}

export interface SqliteTableOptions {
  db: Database.Database;
  clock?: Clock;
  /** Which items reach the outbox (either image passing is enough); default all. */
  streamFilter?: (item: Item) => boolean;
}

interface WriteResult {
  /** The item after each op (undefined for deletes and condition checks). */
  after: (JsonObject | undefined)[];
  changes: number;
}

function toJsonObject(value: object): JsonObject {
  return JSON.parse(JSON.stringify(value));
}

/** Creates the sqlite engine on an open database (creating its tables); `close()` closes the database. */
export function createSqliteTable(options: SqliteTableOptions): SqliteTable {
  const { db } = options;
  const clock = options.clock ?? systemClock;
  const streamFilter = options.streamFilter;
  const listeners = new Set<() => void>();
  migrate(db);

  const selectItem = db.prepare<[string, string], { data: string }>(
    'SELECT data FROM items WHERE pk = ? AND sk = ?',
  );
  const upsertItem = db.prepare<[ItemRow]>(
    `INSERT OR REPLACE INTO items (pk, sk, gsi1pk, gsi1sk, gsi2pk, gsi2sk, ttl, data)
     VALUES (@pk, @sk, @gsi1pk, @gsi1sk, @gsi2pk, @gsi2sk, @ttl, @data)`,
  );
  const deleteItem = db.prepare<[string, string]>('DELETE FROM items WHERE pk = ? AND sk = ?');
  const insertChange = db.prepare<[string]>('INSERT INTO changes (record) VALUES (?)');
  const selectChanges = db.prepare<[number, number], { seq: number; record: string }>(
    'SELECT seq, record FROM changes WHERE seq > ? ORDER BY seq LIMIT ?',
  );
  const deleteChanges = db.prepare<[number]>('DELETE FROM changes WHERE seq <= ?');
  const selectExpired = db.prepare<[number, number], { pk: string; sk: string; data: string }>(
    'SELECT pk, sk, data FROM items WHERE ttl IS NOT NULL AND ttl <= ? ORDER BY ttl LIMIT ?',
  );

  const queries = new Map<string, Database.Statement<(string | number)[], { data: string }>>();
  const prepared = (sql: string) => {
    let statement = queries.get(sql);
    if (!statement) {
      statement = db.prepare<(string | number)[], { data: string }>(sql);
      queries.set(sql, statement);
    }
    return statement;
  };

  const load = (key: Key): JsonObject | undefined => {
    const row = selectItem.get(key.pk, key.sk);
    return row ? JSON.parse(row.data) : undefined;
  };

  const wanted = (image: JsonObject | undefined): boolean => {
    if (!image || !streamFilter) return image !== undefined;
    const item = asItem(image);
    return item !== undefined && streamFilter(item);
  };

  /** Writes an outbox record unless nothing changed or the filter drops both images; true when written. */
  const record = (
    key: Key,
    before: JsonObject | undefined,
    after: JsonObject | undefined,
    expired = false,
  ) => {
    if (before && after && sameJson(before, after)) return false;
    if (!wanted(before) && !wanted(after)) return false;
    insertChange.run(
      serializeChange({ key, oldImage: before, newImage: after, nowMs: clock.now(), expired }),
    );
    return true;
  };

  const apply = (op: WriteOp, before: JsonObject | undefined): { after?: JsonObject; changed: boolean } => {
    const key = opKey(op);
    switch (op.type) {
      case 'conditionCheck':
        return { changed: false };
      case 'delete':
        if (!before) return { changed: false };
        deleteItem.run(key.pk, key.sk);
        return { changed: record(key, before, undefined) };
      case 'put':
      case 'update': {
        const after = toJsonObject(op.type === 'put' ? op.item : applyUpdate(before, op));
        upsertItem.run(toRow(after, key.pk, key.sk));
        return { after, changed: record(key, before, after) };
      }
    }
  };

  // Conditions see every item as it was before the transaction; DynamoDB reports every failed op.
  const writeAll = db.transaction((ops: WriteOp[]): WriteResult => {
    const before = ops.map((op) => load(opKey(op)));
    const failed = ops.flatMap((op, i) =>
      op.condition && !evaluateCondition(before[i], op.condition) ? [i] : [],
    );
    if (failed.length > 0) throw new ConditionFailedError(failed);
    const result: WriteResult = { after: [], changes: 0 };
    ops.forEach((op, i) => {
      const { after, changed } = apply(op, before[i]);
      result.after.push(after);
      if (changed) result.changes += 1;
    });
    return result;
  });

  const sweep = db.transaction((nowSeconds: number, limit: number) => {
    const rows = selectExpired.all(nowSeconds, limit);
    let changes = 0;
    for (const row of rows) {
      deleteItem.run(row.pk, row.sk);
      if (record({ pk: row.pk, sk: row.sk }, JSON.parse(row.data), undefined, true)) changes += 1;
    }
    return { deleted: rows.length, changes };
  });

  const notify = <T extends { changes: number }>(result: T): T => {
    if (result.changes === 0) return result;
    for (const listener of listeners) {
      try {
        listener();
      } catch (error) {
        // The write is committed; a failing listener must not make it look failed.
        process.emitWarning(`sqlite table onCommit listener failed: ${String(error)}`);
      }
    }
    return result;
  };

  // IMMEDIATE takes the write lock up front, so a second process cannot invalidate our reads.
  const write = (ops: WriteOp[]): WriteResult => notify(writeAll.immediate(ops));

  return {
    db,

    async get(key) {
      const item = load(key);
      return item ? parseStoredItem(item) : undefined;
    },

    async batchGet(keys) {
      return uniqueKeys(keys).flatMap((key) => {
        const item = load(key);
        return item ? [parseStoredItem(item)] : [];
      });
    },

    async query(input: QueryInput): Promise<QueryPage> {
      const limit = validateQuery(input);
      const { sql, params } = buildQuery(input, limit);
      const rows = prepared(sql).all(...params);
      const items = rows.slice(0, limit).map((row) => parseStoredItem(JSON.parse(row.data)));
      const last = items.at(-1);
      const more = rows.length > limit && last !== undefined;
      return more ? { items, cursor: encodeCursor(positionOf(last, input.index)) } : { items };
    },

    async transact(ops) {
      validateTransaction(ops);
      if (ops.length > 0) write(ops);
    },

    async update(op: UpdateOp) {
      validateOp(op);
      return parseStoredItem(write([op]).after[0]);
    },

    async close() {
      listeners.clear();
      if (db.open) db.close();
    },

    readChanges(afterSeq, limit) {
      return selectChanges.all(afterSeq, limit).map((row) => {
        const record: DynamoDBRecord = JSON.parse(row.record);
        record.dynamodb = { ...record.dynamodb, SequenceNumber: sequenceNumber(row.seq) };
        return { seq: row.seq, record };
      });
    },

    deleteChangesThrough(seq) {
      deleteChanges.run(seq);
    },

    onCommit(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },

    sweepExpired(nowSeconds, limit) {
      return notify(sweep.immediate(nowSeconds, limit)).deleted;
    },
  };
}
