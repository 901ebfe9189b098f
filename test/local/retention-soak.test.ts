import { afterEach, describe, expect, it } from 'vitest';
import { createRetentionSweeper } from '../../lib/local/retention-sweep.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import { createSqliteTable, openSqliteDatabase, type SqliteTable } from '../../lib/sqlite/sqlite-table.ts';

/**
 * Issue 36 item 6: the local retention sweep keeps up with a busy tenant. A soak on simulated
 * time: every second, 500 items fall due (30,000 a minute, above the 20,000 a minute the sweep
 * used to stop at), the scheduler's tick runs the sweep's tick, and the backlog of expired items
 * still stored is counted each minute: it must not grow. Counts only, no timing.
 */

const PER_SECOND = 500;
const MINUTES = 4;
const T0 = Date.parse('2026-03-01T12:00:00.000Z');

let table: SqliteTable | undefined;
afterEach(async () => {
  await table?.close();
  table = undefined;
});

/** Items stored whose ttl has passed at `nowMs` (what DynamoDB TTL would have removed). */
function backlog(t: SqliteTable, nowMs: number): number {
  const row = t.db
    .prepare('SELECT COUNT(*) AS n FROM items WHERE ttl IS NOT NULL AND ttl <= ?')
    .get(Math.floor(nowMs / 1000)) as { n: number };
  return row.n;
}

/** `count` items that expire at `nowMs` (written a retention period earlier), 100 per transaction. */
async function falling(t: SqliteTable, nowMs: number, count: number, seq: { n: number }) {
  for (let start = 0; start < count; start += 100) {
    const ops = Array.from({ length: Math.min(100, count - start) }, () => {
      seq.n += 1;
      return {
        type: 'put' as const,
        item: {
          pk: `RES#soak#${seq.n % 50}`,
          sk: String(seq.n).padStart(9, '0'),
          entity: 'soak',
          schema_version: 1,
          ttl: Math.floor(nowMs / 1000),
        },
      };
    });
    await t.transact(ops);
  }
}

describe('the retention sweep under a busy tenant', () => {
  it('keeps the backlog of expired items from growing at 30,000 expiries a minute', async () => {
    const t = createSqliteTable({ db: openSqliteDatabase(':memory:'), streamEntities: [] });
    table = t;
    const sweeper = createRetentionSweeper({ table: t, logger: silentLogger, everyMs: 60_000 });
    const seq = { n: 0 };
    const perMinute: number[] = [];
    let nowMs = T0;
    for (let minute = 0; minute < MINUTES; minute += 1) {
      for (let second = 0; second < 60; second += 1) {
        nowMs += 1000;
        await falling(t, nowMs, PER_SECOND, seq);
        await sweeper.onTick(nowMs);
      }
      perMinute.push(backlog(t, nowMs));
    }
    expect(seq.n).toBe(PER_SECOND * 60 * MINUTES);
    // At most what fell due since the last sweep ran (one tick's worth, or a minute's before it
    // fell behind once): never more minute after minute.
    for (let i = 1; i < perMinute.length; i += 1)
      expect(perMinute[i], `backlog by minute: ${perMinute.join(', ')}`).toBeLessThanOrEqual(
        perMinute[0] ?? 0,
      );
    expect(perMinute.at(-1)).toBeLessThanOrEqual(PER_SECOND * 60);
    // Once nothing more falls due, the next ticks clear it all.
    for (let tick = 0; tick < 10 && backlog(t, nowMs) > 0; tick += 1) {
      nowMs += 1000;
      await sweeper.onTick(nowMs);
    }
    expect(backlog(t, nowMs)).toBe(0);
  }, 120_000);

  it('sweeps on the period only while nothing is left behind', async () => {
    const t = createSqliteTable({ db: openSqliteDatabase(':memory:'), streamEntities: [] });
    table = t;
    const sweeper = createRetentionSweeper({
      table: t,
      logger: silentLogger,
      everyMs: 60_000,
      batch: 10,
      maxBatches: 2,
    });
    const seq = { n: 0 };
    await falling(t, T0, 45, seq);
    expect(await sweeper.onTick(T0)).toBe(20);
    expect(sweeper.behind).toBe(true);
    expect(await sweeper.onTick(T0 + 1000)).toBe(20);
    expect(await sweeper.onTick(T0 + 2000)).toBe(5);
    expect(sweeper.behind).toBe(false);
    await falling(t, T0 + 3000, 5, seq);
    // Caught up: the next sweep waits for its period.
    expect(await sweeper.onTick(T0 + 3000)).toBe(0);
    expect(await sweeper.onTick(T0 + 62_000)).toBe(5);
  });
});
