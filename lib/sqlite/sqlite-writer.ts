import type Database from 'better-sqlite3';
import type { StreamedEntity } from '../store/change-feed.ts';
import {
  ConditionFailedError,
  ItemTooLargeError,
  type Key,
  MAX_ITEM_BYTES,
  type WriteOp,
} from '../store/table.ts';
import { opKey } from '../store/validation.ts';
import { applyUpdate, evaluateCondition } from './sqlite-conditions.ts';
import { serializeChange } from './sqlite-outbox.ts';
import { type JsonObject, sameJson } from './sqlite-records.ts';
import { type ItemRow, toRow } from './sqlite-schema.ts';

/**
 * The sqlite engine's write side, synchronous: group commits of transactions, the change-feed
 * outbox, the TTL sweep. One writer per database file: it runs either on the event loop's thread
 * (`createSqliteTable` without `writerThread`) or on a thread of its own (sqlite-writer-thread.ts).
 */

export interface WriteResult {
  /** The stored JSON text of each op's item after it (undefined for deletes and condition checks). */
  texts: (string | undefined)[];
  /** Outbox records written. */
  changes: number;
}

/** One transaction's outcome inside a group commit. */
export type WriteOutcome = { ok: true; result: WriteResult } | { ok: false; error: unknown };

export interface SqliteWriter {
  /**
   * Commits the transactions in ONE sqlite transaction: each applies all or nothing (it is planned
   * in full before its first write) and sees the ones before it. Throws only when the commit itself
   * fails or a write statement fails (disk full, I/O): then the whole group rolls back.
   */
  commitGroup(group: WriteOp[][]): WriteOutcome[];
  /** Deletes up to `limit` items whose ttl <= `nowSeconds`, recording TTL-style REMOVE records. */
  sweepExpired(nowSeconds: number, limit: number): { deleted: number; changes: number };
  /** Drops outbox records up to and including `seq`. */
  deleteChangesThrough(seq: number): void;
}

export interface SqliteWriterOptions {
  /** Entities (the item's `entity`) that reach the outbox (either image is enough); default all. */
  streamEntities?: readonly StreamedEntity[];
}

const INDEX_COLUMNS = ['gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'ttl'] as const;

/** The write side on an open, migrated database. */
export function createSqliteWriter(db: Database.Database, options: SqliteWriterOptions = {}): SqliteWriter {
  const streamed = options.streamEntities
    ? new Set(options.streamEntities.filter((e) => typeof e === 'string'))
    : undefined;
  const streamedOnMove = new Set(
    (options.streamEntities ?? []).flatMap((e) => (typeof e === 'string' ? [] : [e.entity])),
  );
  const selectItem = db.prepare<[string, string], { data: string }>(
    'SELECT data FROM items WHERE pk = ? AND sk = ?',
  );
  const insertItem = db.prepare<[ItemRow]>(
    `INSERT OR REPLACE INTO items (pk, sk, gsi1pk, gsi1sk, gsi2pk, gsi2sk, ttl, data)
     VALUES (@pk, @sk, @gsi1pk, @gsi1sk, @gsi2pk, @gsi2sk, @ttl, @data)`,
  );
  const deleteItem = db.prepare<[string, string]>('DELETE FROM items WHERE pk = ? AND sk = ?');
  const insertChange = db.prepare<[string]>('INSERT INTO changes (record) VALUES (?)');
  const deleteChanges = db.prepare<[number]>('DELETE FROM changes WHERE seq <= ?');
  const selectExpired = db.prepare<[number, number], { pk: string; sk: string; data: string }>(
    'SELECT pk, sk, data FROM items WHERE ttl IS NOT NULL AND ttl <= ? ORDER BY ttl LIMIT +?',
  );

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

  // Every image was stored through `toRow`; its `entity` attribute is enough (no full parse per op).
  const wanted = (image: JsonObject | undefined): boolean =>
    image !== undefined && (!streamed || (typeof image.entity === 'string' && streamed.has(image.entity)));
  /** A change that gives an item streamed on its moves a new gsi2 sort key. */
  const moved = (before: JsonObject | undefined, after: JsonObject | undefined): boolean =>
    after !== undefined &&
    typeof after.entity === 'string' &&
    streamedOnMove.has(after.entity) &&
    after.gsi2sk !== undefined &&
    after.gsi2sk !== before?.gsi2sk;

  /** The outbox record of a change, unless nothing changed or the filter drops both images. */
  const change = (
    key: Key,
    before: JsonObject | undefined,
    after: JsonObject | undefined,
    expired = false,
  ): string | undefined => {
    // The cheap test first: most items (results, rollups, checks) are never streamed.
    if (!wanted(before) && !wanted(after) && !moved(before, after)) return undefined;
    if (before && after && sameJson(before, after)) return undefined;
    return serializeChange({ key, oldImage: before, newImage: after, expired });
  };

  /** One op's writes, computed before any of its transaction's writes run. */
  interface PlannedWrite {
    key: Key;
    /** The row to store (put, update), or none (delete of an existing item). */
    row?: ItemRow;
    /** The row as it is now, when there is one (an update in place). */
    old?: ItemRow;
    /** The outbox record, when the change is streamed. */
    record?: string;
  }

  const plan = (op: WriteOp, before: JsonObject | undefined): PlannedWrite | undefined => {
    const key = opKey(op);
    switch (op.type) {
      case 'conditionCheck':
        return undefined;
      case 'delete':
        if (!before) return undefined;
        return { key, record: change(key, before, undefined) };
      case 'put':
      case 'update': {
        // Serialised once. Items are plain JSON values, so the index columns come from the object
        // itself; only an item bound for the outbox is parsed back (JSON-normalised, for its image).
        const next: JsonObject = op.type === 'put' ? op.item : applyUpdate(before, op);
        const data = JSON.stringify(next);
        // UTF-8 takes at most 3 bytes per UTF-16 unit, so only long texts need counting.
        if (data.length * 3 > MAX_ITEM_BYTES && Buffer.byteLength(data) > MAX_ITEM_BYTES) {
          throw new ItemTooLargeError(
            `item size has exceeded the maximum allowed size (${MAX_ITEM_BYTES} bytes)`,
          );
        }
        const after = wanted(before) || wanted(next) ? (JSON.parse(data) as JsonObject) : next;
        return {
          key,
          row: toRow(next, key.pk, key.sk, data),
          ...(before ? { old: toRow(before, key.pk, key.sk, '') } : {}),
          record: change(key, before, after),
        };
      }
    }
  };

  const write = (planned: PlannedWrite) => {
    if (!planned.row) deleteItem.run(planned.key.pk, planned.key.sk);
    else if (planned.old) rewrite(planned.row, planned.old);
    else insertItem.run(planned.row);
    if (planned.record !== undefined) insertChange.run(planned.record);
  };

  /**
   * One transaction of a group, all or nothing without a savepoint of its own: everything that can
   * fail for this transaction alone (its conditions, an update that does not apply) happens while
   * planning, before its first write. Conditions see every item as it was before the transaction;
   * DynamoDB reports every failed op. A failing write statement after that is an engine failure
   * (disk full, I/O): it escapes, and the whole group rolls back.
   */
  const writeOne = (ops: WriteOp[]): WriteOutcome => {
    const planned: PlannedWrite[] = [];
    const texts: (string | undefined)[] = [];
    try {
      const before = ops.map((op) => load(opKey(op)));
      const failed = ops.flatMap((op, i) =>
        op.condition && !evaluateCondition(before[i], op.condition) ? [i] : [],
      );
      if (failed.length > 0) throw new ConditionFailedError(failed);
      ops.forEach((op, i) => {
        const next = plan(op, before[i]);
        texts.push(next?.row?.data);
        if (next) planned.push(next);
      });
    } catch (error) {
      return { ok: false, error };
    }
    let changes = 0;
    for (const item of planned) {
      write(item);
      if (item.record !== undefined) changes += 1;
    }
    return { ok: true, result: { texts, changes } };
  };

  // Savepoints per transaction were measured at ~12 % of the writer's time; planning makes them
  // unnecessary (above).
  const commitAll = db.transaction((group: WriteOp[][]) => group.map((ops) => writeOne(ops)));

  const sweep = db.transaction((nowSeconds: number, limit: number) => {
    const rows = selectExpired.all(nowSeconds, limit);
    let changes = 0;
    for (const row of rows) {
      deleteItem.run(row.pk, row.sk);
      const record = change({ pk: row.pk, sk: row.sk }, JSON.parse(row.data), undefined, true);
      if (record === undefined) continue;
      insertChange.run(record);
      changes += 1;
    }
    return { deleted: rows.length, changes };
  });

  return {
    // IMMEDIATE takes the write lock up front, so a second process cannot invalidate our reads.
    commitGroup: (group) => commitAll.immediate(group),
    sweepExpired: (nowSeconds, limit) => sweep.immediate(nowSeconds, limit),
    deleteChangesThrough: (seq) => {
      deleteChanges.run(seq);
    },
  };
}
