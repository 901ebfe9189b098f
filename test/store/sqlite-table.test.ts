import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { marshall } from '@aws-sdk/util-dynamodb';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createChangePump } from '../../lib/local/change-pump.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import { createSqliteTable, openSqliteDatabase, type SqliteTable } from '../../lib/sqlite/sqlite-table.ts';
import type { Change, StreamedEntity } from '../../lib/store/change-feed.ts';
import { ConditionFailedError, InvalidWriteError, type Item, type NewItem } from '../../lib/store/table.ts';
import { describeTableContract } from './table-contract.ts';

describeTableContract('sqlite', async () => {
  const table = createSqliteTable({ db: openSqliteDatabase(':memory:') });
  return { table, cleanup: () => table.close() };
});

/** Temporary directories for file databases, removed after the file's tests. */
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
function tempDbPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-sqlite-'));
  dirs.push(dir);
  return join(dir, 'vigil.db');
}

// One writer thread for the whole contract (each test uses partition keys of its own).
let threaded: SqliteTable | undefined;
afterAll(() => threaded?.close());
describeTableContract('sqlite with a writer thread', async () => {
  threaded ??= createSqliteTable({ db: openSqliteDatabase(tempDbPath()), writerThread: true });
  return { table: threaded, cleanup: async () => {} };
});

const thing = (sk: string, attrs: Record<string, unknown> = {}): NewItem => ({
  pk: 'p',
  sk,
  entity: 'thing',
  schema_version: 1,
  ...attrs,
});

/** Outbox Changes (what a consumer sees), without the random event ids. */
function changes(table: SqliteTable, afterSeq = 0): Omit<Change, 'eventId'>[] {
  return table.readChanges(afterSeq, 100).map(({ change }) => {
    const { eventId: _eventId, ...rest } = change;
    return rest;
  });
}

/** The outbox rows' stored JSON, oldest first. */
function storedRows(table: SqliteTable): unknown[] {
  const rows = table.db.prepare<[], { record: string }>('SELECT record FROM changes ORDER BY seq').all();
  return rows.map((row) => JSON.parse(row.record));
}

describe.each([
  { writes: 'inline', writerThread: false },
  { writes: 'on a writer thread', writerThread: true },
])('sqlite change feed, writes $writes', ({ writerThread }) => {
  const open = (options: { streamEntities?: StreamedEntity[] } = {}) =>
    createSqliteTable({
      db: openSqliteDatabase(writerThread ? tempDbPath() : ':memory:'),
      writerThread,
      ...options,
    });
  let table: SqliteTable;
  let commits: number;
  beforeEach(() => {
    table = open();
    commits = 0;
    table.onCommit(() => {
      commits += 1;
    });
  });
  afterEach(() => table.close());

  it('records INSERT, MODIFY and REMOVE with old and new images', async () => {
    await table.transact([{ type: 'put', item: thing('a', { n: 1 }) }]);
    await table.update({ type: 'update', key: { pk: 'p', sk: 'a' }, add: { n: 1 } });
    await table.transact([{ type: 'delete', key: { pk: 'p', sk: 'a' } }]);
    const keys = { pk: 'p', sk: 'a' };
    expect(changes(table)).toEqual([
      { eventName: 'INSERT', keys, newImage: thing('a', { n: 1 }), oldImage: undefined, expired: false },
      {
        eventName: 'MODIFY',
        keys,
        newImage: thing('a', { n: 2 }),
        oldImage: thing('a', { n: 1 }),
        expired: false,
      },
      { eventName: 'REMOVE', keys, newImage: undefined, oldImage: thing('a', { n: 2 }), expired: false },
    ]);
    expect(commits).toBe(3);
  });

  it('stores plain Changes holding the items as stored, with increasing sequence numbers', async () => {
    await table.transact([
      { type: 'put', item: thing('a', { n: 1, tags: ['x'] }) },
      { type: 'put', item: thing('b') },
    ]);
    await table.update({ type: 'update', key: { pk: 'p', sk: 'a' }, add: { n: 1 } });
    const [first, second, third] = storedRows(table);
    expect(first).toStrictEqual({
      eventId: expect.any(String),
      eventName: 'INSERT',
      keys: { pk: 'p', sk: 'a' },
      newImage: thing('a', { n: 1, tags: ['x'] }),
      expired: false,
    });
    expect(third).toStrictEqual({
      eventId: expect.any(String),
      eventName: 'MODIFY',
      keys: { pk: 'p', sk: 'a' },
      newImage: thing('a', { n: 2, tags: ['x'] }),
      oldImage: thing('a', { n: 1, tags: ['x'] }),
      expired: false,
    });
    const rows = table.readChanges(0, 10);
    expect(rows.map((row) => row.change.eventId)).toEqual(
      [first, second, third].map((row) => (row as Change).eventId),
    );
    expect(new Set(rows.map((row) => row.change.eventId)).size).toBe(3);
    const sequence = rows.map((row) => row.seq);
    expect(sequence).toEqual([...sequence].sort((a, b) => a - b));
    expect(commits).toBe(2);
  });

  it('records nothing for failed or refused transactions', async () => {
    await table.transact([{ type: 'put', item: thing('a') }]);
    const before = table.readChanges(0, 10).length;
    const failing = table.transact([
      { type: 'put', item: thing('b') },
      { type: 'put', item: thing('a'), condition: { kind: 'itemNotExists' } },
    ]);
    await expect(failing).rejects.toBeInstanceOf(ConditionFailedError);
    const twice = table.transact([
      { type: 'put', item: thing('c') },
      { type: 'delete', key: { pk: 'p', sk: 'c' } },
    ]);
    await expect(twice).rejects.toBeInstanceOf(InvalidWriteError);
    await expect(
      table.update({ type: 'update', key: { pk: 'p', sk: 'a' }, add: { entity: 1 } }),
    ).rejects.toBeInstanceOf(InvalidWriteError);
    expect(table.readChanges(0, 10)).toHaveLength(before);
    expect(commits).toBe(1);
  });

  it('records nothing when a write changes nothing', async () => {
    await table.transact([{ type: 'put', item: thing('a', { list: [1, { x: 1, y: 2 }] }) }]);
    await table.transact([{ type: 'put', item: thing('a', { list: [1, { y: 2, x: 1 }] }) }]);
    await table.transact([{ type: 'delete', key: { pk: 'p', sk: 'absent' } }]);
    await table.transact([
      { type: 'conditionCheck', key: { pk: 'p', sk: 'a' }, condition: { kind: 'itemExists' } },
    ]);
    expect(changes(table).map((c) => c.eventName)).toEqual(['INSERT']);
    expect(commits).toBe(1);
  });

  it('calls onCommit listeners after the commit, until they unsubscribe', async () => {
    const seen: number[] = [];
    const unsubscribe = table.onCommit(() => {
      expect(table.db.inTransaction).toBe(false);
      seen.push(table.readChanges(0, 10).length);
    });
    await table.transact([{ type: 'put', item: thing('a') }]);
    unsubscribe();
    await table.transact([{ type: 'put', item: thing('b') }]);
    expect(seen).toEqual([1]);
  });

  it('reads changes after a sequence number and deletes handled ones', async () => {
    for (const sk of ['a', 'b', 'c']) await table.transact([{ type: 'put', item: thing(sk) }]);
    const [first, ...rest] = table.readChanges(0, 10);
    expect(table.readChanges(first?.seq ?? 0, 1).map((row) => row.seq)).toEqual([rest[0]?.seq]);
    await table.deleteChangesThrough(rest[0]?.seq ?? 0);
    expect(table.readChanges(0, 10).map((row) => row.seq)).toEqual([rest[1]?.seq]);
  });

  it('records only items passing the stream filter (either image)', async () => {
    const filtered = open({ streamEntities: ['wanted'] });
    await filtered.transact([
      { type: 'put', item: thing('a') },
      { type: 'put', item: { pk: 'p', sk: 'b', entity: 'wanted', schema_version: 1 } },
    ]);
    await filtered.update({ type: 'update', key: { pk: 'p', sk: 'b' }, set: { entity: 'retired' } });
    await filtered.update({ type: 'update', key: { pk: 'p', sk: 'b' }, set: { n: 1 } });
    expect(changes(filtered).map((c) => [c.keys.sk, c.eventName, c.newImage?.entity])).toEqual([
      ['b', 'INSERT', 'wanted'],
      ['b', 'MODIFY', 'retired'],
    ]);
    await filtered.close();
  });

  it('records an entity streamed on its moves only when a write gives it a new gsi2 sort key', async () => {
    const filtered = open({ streamEntities: [{ entity: 'told', gsi2Moves: true }] });
    const key = { pk: 'p', sk: 't' };
    await filtered.transact([{ type: 'put', item: { ...key, entity: 'told', schema_version: 1 } }]);
    await filtered.update({ type: 'update', key, set: { gsi2pk: 'CHG', gsi2sk: 'c1' } });
    await filtered.update({ type: 'update', key, set: { n: 1 } });
    await filtered.update({ type: 'update', key, set: { gsi2sk: 'c2' } });
    await filtered.transact([{ type: 'delete', key }]);
    expect(changes(filtered).map((c) => [c.eventName, c.newImage?.gsi2sk])).toEqual([
      ['MODIFY', 'c1'],
      ['MODIFY', 'c2'],
    ]);
    await filtered.close();
  });

  it('sweeps expired items like DynamoDB TTL, with service-principal REMOVE records', async () => {
    await table.transact([
      { type: 'put', item: thing('old', { ttl: 100 }) },
      { type: 'put', item: thing('due', { ttl: 200 }) },
      { type: 'put', item: thing('later', { ttl: 300 }) },
      { type: 'put', item: thing('forever') },
    ]);
    const afterSeq = table.readChanges(0, 10).at(-1)?.seq ?? 0;
    expect(await table.sweepExpired(200, 1)).toBe(1);
    expect(await table.sweepExpired(200, 10)).toBe(1);
    expect(await table.sweepExpired(200, 10)).toBe(0);
    const remaining = await table.query({ pk: 'p' });
    expect(remaining.items.map((it) => it.sk)).toEqual(['forever', 'later']);
    const removed = changes(table, afterSeq);
    expect(removed.map((c) => [c.eventName, c.keys.sk, c.expired])).toEqual([
      ['REMOVE', 'old', true],
      ['REMOVE', 'due', true],
    ]);
    expect(storedRows(table).slice(-2)).toMatchObject([{ expired: true }, { expired: true }]);
    expect(commits).toBe(3);
  });
});

/** An outbox row as the previous version wrote it: a DynamoDB Streams record, images marshalled. */
function streamShapedRow(change: {
  name: string;
  newImage?: Item;
  oldImage?: Item;
  expired?: boolean;
}): string {
  const image = change.newImage ?? change.oldImage;
  return JSON.stringify({
    eventID: `legacy-${change.name}`,
    eventName: change.name,
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: 'local',
    dynamodb: {
      ApproximateCreationDateTime: 1_772_366_400,
      Keys: marshall({ pk: image?.pk, sk: image?.sk }),
      ...(change.newImage ? { NewImage: marshall(change.newImage) } : {}),
      ...(change.oldImage ? { OldImage: marshall(change.oldImage) } : {}),
      StreamViewType: 'NEW_AND_OLD_IMAGES',
      SizeBytes: 100,
    },
    ...(change.expired ? { userIdentity: { type: 'Service', principalId: 'dynamodb.amazonaws.com' } } : {}),
  });
}

describe('sqlite outbox rows written by the previous version', () => {
  it('delivers DynamoDB-shaped rows left at an upgrade, before and alongside new Changes, through the pump', async () => {
    const path = tempDbPath();
    const before = createSqliteTable({ db: openSqliteDatabase(path) });
    const insert = before.db.prepare<[string]>('INSERT INTO changes (record) VALUES (?)');
    insert.run(
      streamShapedRow({ name: 'INSERT', newImage: thing('old', { n: 1, nested: { list: [1, 'x'] } }) }),
    );
    insert.run(
      streamShapedRow({ name: 'MODIFY', newImage: thing('old', { n: 2 }), oldImage: thing('old', { n: 1 }) }),
    );
    insert.run(streamShapedRow({ name: 'REMOVE', oldImage: thing('gone', { ttl: 5 }), expired: true }));
    await before.close();

    const table = createSqliteTable({ db: openSqliteDatabase(path) });
    const seen: Change[] = [];
    const pump = createChangePump({
      table,
      consumers: [
        async (batch) => {
          seen.push(...batch);
        },
      ],
      logger: silentLogger,
    });
    try {
      await table.transact([{ type: 'put', item: thing('new') }]);
      await pump.drain();
      expect(seen).toEqual([
        {
          eventId: 'legacy-INSERT',
          eventName: 'INSERT',
          keys: { pk: 'p', sk: 'old' },
          newImage: thing('old', { n: 1, nested: { list: [1, 'x'] } }),
          oldImage: undefined,
          expired: false,
        },
        {
          eventId: 'legacy-MODIFY',
          eventName: 'MODIFY',
          keys: { pk: 'p', sk: 'old' },
          newImage: thing('old', { n: 2 }),
          oldImage: thing('old', { n: 1 }),
          expired: false,
        },
        {
          eventId: 'legacy-REMOVE',
          eventName: 'REMOVE',
          keys: { pk: 'p', sk: 'gone' },
          newImage: undefined,
          oldImage: thing('gone', { ttl: 5 }),
          expired: true,
        },
        {
          eventId: expect.any(String),
          eventName: 'INSERT',
          keys: { pk: 'p', sk: 'new' },
          newImage: thing('new'),
          oldImage: undefined,
          expired: false,
        },
      ]);
      expect(table.readChanges(0, 10)).toEqual([]);
    } finally {
      await pump.stop();
      await table.close();
    }
  });
});

describe('openSqliteDatabase', () => {
  it('opens a file in WAL mode with synchronous=NORMAL, and the data survives a reopen', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vigil-sqlite-'));
    try {
      const path = join(dir, 'nested', 'vigil.db');
      const table = createSqliteTable({ db: openSqliteDatabase(path) });
      expect(table.db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(table.db.pragma('synchronous', { simple: true })).toBe(1);
      expect(Number(table.db.pragma('busy_timeout', { simple: true }))).toBeGreaterThan(0);
      await table.transact([{ type: 'put', item: thing('a') }]);
      await table.close();
      const reopened = createSqliteTable({ db: openSqliteDatabase(path) });
      expect(await reopened.get({ pk: 'p', sk: 'a' })).toEqual(thing('a'));
      expect(reopened.readChanges(0, 10)).toHaveLength(1);
      await reopened.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('sqlite writer thread', () => {
  it('needs a database file', () => {
    expect(() => createSqliteTable({ db: openSqliteDatabase(':memory:'), writerThread: true })).toThrow(
      /needs a database file/,
    );
  });

  it('keeps the engine errors across the thread, and a failed transaction leaves its group', async () => {
    const table = createSqliteTable({ db: openSqliteDatabase(tempDbPath()), writerThread: true });
    try {
      await table.transact([{ type: 'put', item: thing('a', { n: 'text' }) }]);
      // Submitted in one turn: one group commit on the thread, each transaction on its own.
      const results = await Promise.allSettled([
        table.transact([{ type: 'put', item: thing('b') }]),
        table.transact([
          { type: 'put', item: thing('c') },
          { type: 'put', item: thing('a'), condition: { kind: 'itemNotExists' } },
        ]),
        table.update({ type: 'update', key: { pk: 'p', sk: 'a' }, add: { n: 1 } }),
        table.update({
          type: 'update',
          key: { pk: 'p', sk: 'd' },
          set: { entity: 'thing', schema_version: 1 },
          add: { n: 2 },
        }),
        // Its first op would apply; the second does not (no savepoint: nothing of it may remain).
        table.transact([
          { type: 'put', item: thing('e') },
          { type: 'update', key: { pk: 'p', sk: 'a' }, add: { n: 1 } },
        ]),
      ]);
      expect(results.map((r) => r.status)).toEqual([
        'fulfilled',
        'rejected',
        'rejected',
        'fulfilled',
        'rejected',
      ]);
      const [, condition, invalid, counter, partial] = results;
      expect(partial?.status === 'rejected' && partial.reason).toBeInstanceOf(InvalidWriteError);
      expect(condition?.status === 'rejected' && condition.reason).toBeInstanceOf(ConditionFailedError);
      expect(condition?.status === 'rejected' && (condition.reason as ConditionFailedError).failed).toEqual([
        1,
      ]);
      expect(invalid?.status === 'rejected' && invalid.reason).toBeInstanceOf(InvalidWriteError);
      expect(counter?.status === 'fulfilled' && counter.value).toEqual(thing('d', { n: 2 }));
      const items = await table.query({ pk: 'p' });
      expect(items.items.map((item) => item.sk)).toEqual(['a', 'b', 'd']);
    } finally {
      await table.close();
    }
  });

  it('reads on the event loop see every write as soon as it is answered', async () => {
    const table = createSqliteTable({ db: openSqliteDatabase(tempDbPath()), writerThread: true });
    try {
      await table.transact([{ type: 'put', item: thing('counter', { n: 0 }) }]);
      for (let i = 0; i < 50; i += 1) {
        await table.update({ type: 'update', key: { pk: 'p', sk: 'counter' }, add: { n: 1 } });
        expect((await table.get({ pk: 'p', sk: 'counter' }))?.n).toBe(i + 1);
      }
      // 200 concurrent increments, each acknowledged only once committed: none is lost.
      await Promise.all(
        Array.from({ length: 200 }, () =>
          table.update({ type: 'update', key: { pk: 'p', sk: 'counter' }, add: { n: 1 } }),
        ),
      );
      expect((await table.get({ pk: 'p', sk: 'counter' }))?.n).toBe(250);
    } finally {
      await table.close();
    }
  });

  it('commits what was submitted before close, and the file holds it after a reopen', async () => {
    const path = tempDbPath();
    const table = createSqliteTable({
      db: openSqliteDatabase(path),
      writerThread: true,
      backgroundCheckpoints: true,
    });
    const writes = Array.from({ length: 100 }, (_, i) =>
      table.transact([{ type: 'put', item: thing(`k${String(i).padStart(3, '0')}`) }]),
    );
    await table.close();
    await Promise.all(writes);
    const reopened = createSqliteTable({ db: openSqliteDatabase(path) });
    try {
      expect((await reopened.query({ pk: 'p', limit: 1000 })).items).toHaveLength(100);
      expect(reopened.readChanges(0, 1000)).toHaveLength(100);
    } finally {
      await reopened.close();
    }
  });
});

describe('sqlite writer thread: the read cache and other processes', () => {
  it('reads its own writes at once, and sees another connection’s write within a second', async () => {
    const path = tempDbPath();
    const table = createSqliteTable({ db: openSqliteDatabase(path), writerThread: true });
    const other = createSqliteTable({ db: openSqliteDatabase(path) }); // e.g. the operator CLI
    try {
      await table.transact([{ type: 'put', item: thing('a', { n: 1 }) }]);
      expect((await table.get({ pk: 'p', sk: 'a' }))?.n).toBe(1); // now cached
      await table.update({ type: 'update', key: { pk: 'p', sk: 'a' }, add: { n: 1 } });
      expect((await table.get({ pk: 'p', sk: 'a' }))?.n).toBe(2);
      await other.update({ type: 'update', key: { pk: 'p', sk: 'a' }, add: { n: 10 } });
      // Bounded by expect.poll's 10 s, not at 1 s: the machine running the suite may be busy.
      await expect.poll(async () => (await table.get({ pk: 'p', sk: 'a' }))?.n).toBe(12);
      await table.transact([{ type: 'delete', key: { pk: 'p', sk: 'a' } }]);
      expect(await table.get({ pk: 'p', sk: 'a' })).toBeUndefined();
    } finally {
      await other.close();
      await table.close();
    }
  });

  it('drops a cached item whose conditional write failed, so the retry reads it fresh', async () => {
    const path = tempDbPath();
    const table = createSqliteTable({ db: openSqliteDatabase(path), writerThread: true });
    const other = createSqliteTable({ db: openSqliteDatabase(path) });
    try {
      await table.transact([{ type: 'put', item: thing('a', { version: 1 }) }]);
      expect((await table.get({ pk: 'p', sk: 'a' }))?.version).toBe(1);
      await other.update({ type: 'update', key: { pk: 'p', sk: 'a' }, add: { version: 1 } });
      const stale = table.update({
        type: 'update',
        key: { pk: 'p', sk: 'a' },
        add: { version: 1 },
        condition: { kind: 'compare', attr: 'version', op: '=', value: 1 },
      });
      await expect(stale).rejects.toBeInstanceOf(ConditionFailedError);
      expect((await table.get({ pk: 'p', sk: 'a' }))?.version).toBe(2);
    } finally {
      await other.close();
      await table.close();
    }
  });
});
