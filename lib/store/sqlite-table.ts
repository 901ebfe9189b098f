import { setImmediate } from 'node:timers';
import type { DynamoDBRecord } from 'aws-lambda';
import type Database from 'better-sqlite3';
import { type Clock, systemClock } from '../platform/clock.ts';
import { encodeCursor, positionOf } from './cursor.ts';
import { parseStoredItem } from './item-schema.ts';
import { startBackgroundCheckpoints } from './sqlite-checkpointer.ts';
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
  /** WAL checkpoints on a worker thread instead of inside commits (long-running servers on a file). */
  backgroundCheckpoints?: boolean;
}

interface WriteResult {
  /** The item after each op (undefined for deletes and condition checks). */
  after: (JsonObject | undefined)[];
  changes: number;
}

/** A transaction waiting for the next group commit. */
interface PendingWrite {
  ops: WriteOp[];
  resolve(result: WriteResult): void;
  reject(error: unknown): void;
}

/** Transactions committed together at most (bounds how long one commit holds the event loop). */
const MAX_GROUP = 256;

const INDEX_COLUMNS = ['gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'ttl'] as const;

function isItem(image: JsonObject): image is Item {
  return typeof image.pk === 'string' && typeof image.sk === 'string' && typeof image.entity === 'string';
}

/** Creates the sqlite engine on an open database (creating its tables); `close()` closes the database. */
export function createSqliteTable(options: SqliteTableOptions): SqliteTable {
  const { db } = options;
  const clock = options.clock ?? systemClock;
  const streamFilter = options.streamFilter;
  const listeners = new Set<() => void>();
  migrate(db);
  const checkpointer =
    options.backgroundCheckpoints && !db.memory
      ? startBackgroundCheckpoints(db, {
          onError: (message) => process.emitWarning(`sqlite background checkpoint failed: ${message}`),
        })
      : undefined;

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

  // An existing row is updated in place, setting only the index columns that changed, so index
  // entries that stay the same are not deleted and inserted again (fewer pages per commit).
  const rewrites = new Map<string, Database.Statement<(string | number | null)[]>>();
  const rewrite = (row: ItemRow, old: ItemRow) => {
    const changed = INDEX_COLUMNS.filter((column) => row[column] !== old[column]);
    const signature = changed.join(',');
    let statement = rewrites.get(signature);
    if (!statement) {
      const sets = [...changed.map((column) => `${column} = ?`), 'data = ?'].join(', ');
      statement = db.prepare<(string | number | null)[]>(`UPDATE items SET ${sets} WHERE pk = ? AND sk = ?`);
      rewrites.set(signature, statement);
    }
    statement.run(...changed.map((column) => row[column]), row.data, row.pk, row.sk);
  };

  const load = (key: Key): JsonObject | undefined => {
    const row = selectItem.get(key.pk, key.sk);
    return row ? JSON.parse(row.data) : undefined;
  };

  const wanted = (image: JsonObject | undefined): boolean => {
    if (!image || !streamFilter) return image !== undefined;
    // Every image was stored through `toRow`; a look at the key attributes is enough (no full parse per op).
    return isItem(image) && streamFilter(image);
  };

  /** Writes an outbox record unless nothing changed or the filter drops both images; true when written. */
  const record = (
    key: Key,
    before: JsonObject | undefined,
    after: JsonObject | undefined,
    expired = false,
  ) => {
    // The cheap test first: most items (results, rollups, checks) are never streamed.
    if (!wanted(before) && !wanted(after)) return false;
    if (before && after && sameJson(before, after)) return false;
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
        // Serialised once: the stored text, and parsed back as the JSON-normalised item after.
        const data = JSON.stringify(op.type === 'put' ? op.item : applyUpdate(before, op));
        const after: JsonObject = JSON.parse(data);
        const row = toRow(after, key.pk, key.sk, data);
        if (before) rewrite(row, toRow(before, key.pk, key.sk, ''));
        else upsertItem.run(row);
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

  /**
   * Group commit: the transactions submitted in one turn of the event loop commit together in ONE
   * sqlite transaction, each inside its own savepoint (writeAll nests), so each still applies all
   * or nothing and sees the ones before it, exactly as if they ran one after another. Every caller
   * hears back only after the shared COMMIT: a resolved write is durable. One commit (its WAL
   * frames, a checkpoint now and then) then serves many concurrent requests.
   */
  const commitGroup = db.transaction((group: PendingWrite[]) =>
    group.map((entry): { ok: true; result: WriteResult } | { ok: false; error: unknown } => {
      try {
        return { ok: true, result: writeAll(entry.ops) };
      } catch (error) {
        return { ok: false, error };
      }
    }),
  );
  let pending: PendingWrite[] = [];
  let flushing = false;

  const flush = () => {
    flushing = false;
    const group = pending.slice(0, MAX_GROUP);
    pending = pending.slice(group.length);
    if (pending.length > 0) scheduleFlush();
    if (group.length === 0) return;
    let outcomes: ReturnType<typeof commitGroup>;
    try {
      // IMMEDIATE takes the write lock up front, so a second process cannot invalidate our reads.
      outcomes = commitGroup.immediate(group);
    } catch (error) {
      for (const entry of group) entry.reject(error);
      return;
    }
    notify({ changes: outcomes.reduce((sum, o) => sum + (o.ok ? o.result.changes : 0), 0) });
    outcomes.forEach((outcome, i) => {
      const entry = group[i];
      if (!entry) return;
      if (outcome.ok) entry.resolve(outcome.result);
      else entry.reject(outcome.error);
    });
  };

  function scheduleFlush() {
    if (flushing) return;
    flushing = true;
    // node:timers' own setImmediate: after this turn's I/O callbacks, so their writes join the group.
    setImmediate(flush);
  }

  const write = (ops: WriteOp[]): Promise<WriteResult> =>
    new Promise((resolve, reject) => {
      pending.push({ ops, resolve, reject });
      scheduleFlush();
    });

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
      if (ops.length > 0) await write(ops);
    },

    async update(op: UpdateOp) {
      validateOp(op);
      return parseStoredItem((await write([op])).after[0]);
    },

    async close() {
      // Writes already submitted still commit (and their callers hear back) before the close.
      while (pending.length > 0 && db.open) flush();
      listeners.clear();
      await checkpointer?.stop();
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
