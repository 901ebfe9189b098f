import { setImmediate } from 'node:timers';
import type Database from 'better-sqlite3';
import type { Change, StreamedEntity } from '../store/change-feed.ts';
import { encodeCursor, positionOf } from '../store/cursor.ts';
import { parseStoredItem } from '../store/item-schema.ts';
import type { Key, QueryInput, QueryPage, Table, UpdateOp, WriteOp } from '../store/table.ts';
import { opKey, uniqueKeys, validateOp, validateQuery, validateTransaction } from '../store/validation.ts';
import { startBackgroundCheckpoints } from './sqlite-checkpointer.ts';
import { parseOutboxRecord } from './sqlite-outbox.ts';
import { buildQuery } from './sqlite-query.ts';
import { createReadCache } from './sqlite-read-cache.ts';
import type { JsonObject } from './sqlite-records.ts';
import { migrate } from './sqlite-schema.ts';
import { createSqliteWriter, type WriteOutcome, type WriteResult } from './sqlite-writer.ts';
import { inlineWriterPort, startWriterThread, type WriterPort } from './sqlite-writer-client.ts';

export { openSqliteDatabase } from './sqlite-schema.ts';

/** The sqlite engine: the Table port plus the local change-feed outbox and the TTL sweeper. */
export interface SqliteTable extends Table {
  /** The open database, shared with other local components (the durable queue); `close()` closes it. */
  readonly db: Database.Database;
  /** Outbox changes after `afterSeq`, oldest first. */
  readChanges(afterSeq: number, limit: number): { seq: number; change: Change }[];
  /** Drops outbox records up to and including `seq` (after they were handled). */
  deleteChangesThrough(seq: number): Promise<void>;
  /** Calls `listener` after every commit that wrote outbox records; returns an unsubscribe function. */
  onCommit(listener: () => void): () => void;
  /** Deletes up to `limit` items whose ttl <= `nowSeconds`, recording TTL-style REMOVE records; returns the count. */
  sweepExpired(nowSeconds: number, limit: number): Promise<number>;
}

export interface SqliteTableOptions {
  db: Database.Database;
  /** Entities (an item's `entity`) that reach the outbox (either image is enough); default all. */
  streamEntities?: readonly StreamedEntity[];
  /** WAL checkpoints on a worker thread instead of inside commits (long-running servers on a file). */
  backgroundCheckpoints?: boolean;
  /**
   * Writes on a thread of their own with a second connection (file databases only): the event
   * loop keeps only the reads. The local runtime's default; tests and the CLI write inline.
   */
  writerThread?: boolean;
  /** Told how long each group commit took, from its send to the writer to its answer (GET /metrics). */
  observeCommit?: (ms: number) => void;
}

/** A transaction waiting for the next group commit. */
interface PendingWrite {
  ops: WriteOp[];
  resolve(result: WriteResult): void;
  reject(error: unknown): void;
}

/** The writer-thread table's read cache (sqlite-read-cache.ts): items kept, and for how long at most. */
const READ_CACHE_ENTRIES = 20_000;
const READ_CACHE_MS = 1000;

/** Transactions committed together at most (bounds how long one commit holds the event loop). */
const MAX_GROUP = 256;
/** The same on the writer thread, where a commit does not hold the event loop. */
const MAX_THREAD_GROUP = 1024;
/** Groups out to the writer thread at once (2 measured no better than 1: docs/performance.md). */
const MAX_THREAD_IN_FLIGHT = 1;

/** Creates the sqlite engine on an open database (creating its tables); `close()` closes the database. */
export function createSqliteTable(options: SqliteTableOptions): SqliteTable {
  const { db } = options;
  const listeners = new Set<() => void>();
  migrate(db);
  const streamEntities = options.streamEntities ? { streamEntities: options.streamEntities } : {};
  const onThread = options.writerThread === true;
  if (onThread && (db.memory || db.name === '')) throw new Error('writerThread needs a database file');
  const checkpointer =
    options.backgroundCheckpoints && !onThread && !db.memory
      ? startBackgroundCheckpoints(db, {
          onError: (message) => process.emitWarning(`sqlite background checkpoint failed: ${message}`),
        })
      : undefined;
  const writer: WriterPort = onThread
    ? startWriterThread({
        path: db.name,
        ...streamEntities,
        backgroundCheckpoints: options.backgroundCheckpoints === true,
      })
    : inlineWriterPort(createSqliteWriter(db, streamEntities));

  const selectItem = db.prepare<[string, string], { data: string }>(
    'SELECT data FROM items WHERE pk = ? AND sk = ?',
  );
  const selectChanges = db.prepare<[number, number], { seq: number; record: string }>(
    'SELECT seq, record FROM changes WHERE seq > ? ORDER BY seq LIMIT +?',
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

  const cache = onThread
    ? createReadCache({ maxEntries: READ_CACHE_ENTRIES, maxAgeMs: READ_CACHE_MS })
    : undefined;
  const cacheKey = (key: Key) => `${key.pk}\u0000${key.sk}`;

  const load = (key: Key): JsonObject | undefined => {
    const cached = cache?.get(cacheKey(key));
    if (cached !== undefined) return JSON.parse(cached);
    const row = selectItem.get(key.pk, key.sk);
    if (!row) return undefined;
    cache?.set(cacheKey(key), row.data);
    return JSON.parse(row.data);
  };

  /** Brings the read cache in line with a group's outcomes, before any caller hears back. */
  const settleCache = (group: PendingWrite[], outcomes: WriteOutcome[] | undefined) => {
    if (!cache) return;
    group.forEach((entry, i) => {
      const outcome = outcomes?.[i];
      entry.ops.forEach((op, j) => {
        const key = cacheKey(opKey(op));
        if (!outcome?.ok) cache.drop(key);
        else if (op.type !== 'conditionCheck') cache.written(key, outcome.result.texts[j]);
      });
    });
  };

  const notify = (changes: number) => {
    if (changes === 0) return;
    for (const listener of listeners) {
      try {
        listener();
      } catch (error) {
        // The write is committed; a failing listener must not make it look failed.
        process.emitWarning(`sqlite table onCommit listener failed: ${String(error)}`);
      }
    }
  };

  /**
   * Group commit: the transactions submitted in one turn of the event loop commit together in ONE
   * sqlite transaction; each still applies all or nothing (the writer plans it in full before its
   * first write) and sees the ones before it, exactly as if they ran one after another. Every caller hears back
   * only after the shared COMMIT: a resolved write is durable. One commit (its WAL frames, a
   * checkpoint now and then) then serves many concurrent requests.
   */
  let pending: PendingWrite[] = [];
  let flushing = false;

  const inFlight = new Set<Promise<void>>();

  const flush = () => {
    flushing = false;
    // On the writer thread, at most MAX_THREAD_IN_FLIGHT groups out: writes arriving meanwhile
    // gather into the next group, sent when one is answered (fewer, larger commits and thread
    // wake-ups under load, and the thread never waits for the event loop to send more).
    if (onThread && inFlight.size >= MAX_THREAD_IN_FLIGHT) return;
    const group = pending.slice(0, onThread ? MAX_THREAD_GROUP : MAX_GROUP);
    pending = pending.slice(group.length);
    if (pending.length > 0) scheduleFlush();
    if (group.length === 0) return;
    const sentAt = performance.now();
    const done = writer.commit(group.map((entry) => entry.ops)).then(
      (outcomes) => {
        options.observeCommit?.(performance.now() - sentAt);
        settleCache(group, outcomes);
        notify(outcomes.reduce((sum, o) => sum + (o.ok ? o.result.changes : 0), 0));
        outcomes.forEach((outcome, i) => {
          const entry = group[i];
          if (!entry) return;
          if (outcome.ok) entry.resolve(outcome.result);
          else entry.reject(outcome.error);
        });
      },
      (error: unknown) => {
        settleCache(group, undefined);
        for (const entry of group) entry.reject(error);
      },
    );
    inFlight.add(done);
    void done.finally(() => {
      inFlight.delete(done);
      if (pending.length > 0) scheduleFlush();
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
      const [text] = (await write([op])).texts;
      return parseStoredItem(text === undefined ? undefined : JSON.parse(text));
    },

    async close() {
      // Writes already submitted still commit (and their callers hear back) before the close.
      while (pending.length > 0 || inFlight.size > 0) {
        await Promise.all(inFlight);
        flush();
      }
      await writer.close();
      listeners.clear();
      await checkpointer?.stop();
      if (db.open) db.close();
    },

    readChanges(afterSeq, limit) {
      return selectChanges.all(afterSeq, limit).map((row) => ({
        seq: row.seq,
        change: parseOutboxRecord(row.record),
      }));
    },

    deleteChangesThrough(seq) {
      return writer.deleteChangesThrough(seq);
    },

    onCommit(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },

    async sweepExpired(nowSeconds, limit) {
      const { deleted, changes } = await writer.sweepExpired(nowSeconds, limit);
      notify(changes);
      return deleted;
    },
  };
}
