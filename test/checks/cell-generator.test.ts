import { describe, expect, it } from 'vitest';
import { cellCreatedOp, readLease } from '../../lib/checks/cells/cell-items.ts';
import { type DueCellSlot, generateCellShard } from '../../lib/checks/runner/cell-generator.ts';
import { isoTime } from '../../lib/platform/clock.ts';
import { createSqliteTable, openSqliteDatabase } from '../../lib/sqlite/sqlite-table.ts';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const MINUTE = 60_000;

function cellOf(id: string, shard: number, interval = 60) {
  return {
    id,
    tenant_id: 'tnt_a',
    shard,
    interval_seconds: interval,
    members: { chk_a: 1 },
    version: 1,
    created_at: isoTime(T0),
  };
}

describe('the generator over a shard of cells', () => {
  it('sends one job per cell and slot of the window, moves the lease, and sends nothing twice', async () => {
    const table = createSqliteTable({ db: openSqliteDatabase(':memory:') });
    await table.transact([
      cellCreatedOp(cellOf('cel_01JD0000000000000000000001', 3)),
      cellCreatedOp(cellOf('cel_01JD0000000000000000000002', 3)),
      cellCreatedOp(cellOf('cel_01JD0000000000000000000003', 3, 300)),
      cellCreatedOp(cellOf('cel_01JD0000000000000000000004', 4)),
    ]);
    const sent: DueCellSlot[] = [];
    const dispatch = async (slots: DueCellSlot[]) => {
      sent.push(...slots);
      return 0;
    };
    const first = await generateCellShard(3, T0 + MINUTE, { table, nowMs: T0, dispatch });
    // Two 1-minute cells have one slot each in the minute; the 5-minute one may or may not.
    expect(first.cells).toBe(3);
    expect(sent.filter((s) => s.job.cell_id.endsWith('1') || s.job.cell_id.endsWith('2'))).toHaveLength(2);
    expect(sent.every((s) => s.job.shard === 3 && s.dueMs > T0 && s.dueMs <= T0 + MINUTE)).toBe(true);
    expect(await readLease(table, 3)).toBe(isoTime(T0 + MINUTE));

    // The same window again (a second run): nothing more is sent.
    const count = sent.length;
    expect(await generateCellShard(3, T0 + MINUTE, { table, nowMs: T0 + 1000, dispatch })).toMatchObject({
      sent: 0,
    });
    expect(sent).toHaveLength(count);

    // Five minutes later: every 1-minute cell's five slots, the 5-minute cell's one, none before the lease.
    sent.length = 0;
    await generateCellShard(3, T0 + 6 * MINUTE, { table, nowMs: T0 + 5 * MINUTE, dispatch });
    const perCell = (suffix: string) => sent.filter((s) => s.job.cell_id.endsWith(suffix)).length;
    expect([perCell('1'), perCell('2'), perCell('3')]).toEqual([5, 5, 1]);
    expect(sent.every((s) => s.dueMs > T0 + MINUTE)).toBe(true);
    await table.close();
  });

  it('keeps the lease when the queue refuses a job, so the next run sends the window again', async () => {
    const table = createSqliteTable({ db: openSqliteDatabase(':memory:') });
    await table.transact([cellCreatedOp(cellOf('cel_01JD0000000000000000000001', 0))]);
    const refused = await generateCellShard(0, T0 + MINUTE, {
      table,
      nowMs: T0,
      dispatch: async (s) => s.length,
    });
    expect(refused).toMatchObject({ sent: 0, leased: false });
    expect(await readLease(table, 0)).toBeUndefined();
    const sent: DueCellSlot[] = [];
    await generateCellShard(0, T0 + MINUTE, {
      table,
      nowMs: T0,
      dispatch: async (slots) => {
        sent.push(...slots);
        return 0;
      },
    });
    expect(sent).toHaveLength(1);
    await table.close();
  });
});
