import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSqliteTable, openSqliteDatabase } from '../../lib/sqlite/sqlite-table.ts';
import type { NewItem } from '../../lib/store/table.ts';

/**
 * The SQLite engine's statements are prepared once and run with new values, never prepared again
 * per run: SQLite (3.54) reads a bound value while planning (a partition key compared by `=`, a
 * LIMIT) and then marks the statement to be prepared again whenever that value is bound anew,
 * which better-sqlite3 does on every run, compiling a new row function (`Function`) each time
 * (node_modules/better-sqlite3/src/util/row-builder.cpp): a third of a read's CPU (issue 76 point
 * 3). Seen here through that row function: the second round of the same reads and writes, with
 * other values, compiles none.
 */

const item = (i: number): NewItem => ({
  pk: `T#${i % 3}`,
  sk: `RES#${String(i).padStart(4, '0')}`,
  entity: 'result',
  schema_version: 1,
  gsi1pk: `G#${i % 2}`,
  gsi1sk: `A#${i}`,
  gsi2pk: `H#${i % 2}`,
  gsi2sk: `B#${i}`,
  ttl: 1000 + i,
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the SQLite engine prepares each statement once', () => {
  it('reads, pages, writes, the outbox and the sweep run again with new values without being prepared again', async () => {
    const table = createSqliteTable({ db: openSqliteDatabase(':memory:') });
    for (let i = 0; i < 24; i++) await table.transact([{ type: 'put', item: item(i) }]);
    /** One round of every kind of read, with values of round `r`. */
    const round = async (r: number) => {
      const pk = `T#${r}`;
      await table.get({ pk, sk: 'RES#0003' });
      await table.query({ pk, sk: { op: 'beginsWith', prefix: 'RES#' }, limit: 2 + r });
      const desc = await table.query({
        pk,
        sk: { op: 'beginsWith', prefix: 'RES#' },
        direction: 'desc',
        limit: 3 + r,
      });
      // The next page (a cursor adds a row-value comparison).
      await table.query({
        pk,
        sk: { op: 'beginsWith', prefix: 'RES#' },
        direction: 'desc',
        limit: 3,
        cursor: desc.cursor,
      });
      await table.query({ pk, sk: { op: 'between', low: 'RES#0000', high: `RES#00${10 + r}` } });
      await table.query({ pk, sk: { op: '<=', value: `RES#00${10 + r}` }, limit: 1 + r });
      const g1 = await table.query({ index: 'gsi1', pk: `G#${r % 2}`, limit: 2 + r });
      await table.query({ index: 'gsi1', pk: `G#${r % 2}`, limit: 2, cursor: g1.cursor });
      await table.query({ index: 'gsi2', pk: `H#${r % 2}`, sk: { op: 'beginsWith', prefix: 'B#1' } });
      // The writer's statements too (inline here; the same ones run on its thread).
      await table.transact([{ type: 'put', item: item(100 + r) }]);
      await table.update({
        type: 'update',
        key: { pk, sk: `RES#00${12 + r}` },
        set: { seen: r },
        add: { count: 1 },
      });
      await table.transact([{ type: 'delete', key: { pk: 'T#1', sk: `RES#00${10 + r}` } }]);
      table.readChanges(r, 5 + r);
      await table.sweepExpired(1000 + r, 1 + r);
    };
    await round(0);
    const compiled = vi.spyOn(globalThis, 'Function');
    await round(1);
    await round(2);
    expect(compiled).not.toHaveBeenCalled();
    await table.close();
  });
});
