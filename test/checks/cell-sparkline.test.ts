import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cellRollupsBetween } from '../../lib/checks/cells/cell-rollup-items.ts';
import { getCheckDefinition } from '../../lib/checks/check-items.ts';
import { resultRecordedOp } from '../../lib/checks/items/result-items.ts';
import { rollupAddOp } from '../../lib/checks/items/rollup-items.ts';
import { readSparkline } from '../../lib/checks/results/sparkline-reads.ts';
import { createCellRunner } from '../../lib/checks/runner/cell-runner.ts';
import { rollResult } from '../../lib/domain/rollups/rollup-bucket.ts';
import type { SparklineBucket as Bucket } from '../../lib/domain/rollups/sparkline.ts';
import { createFakeClock, isoTime } from '../../lib/platform/clock.ts';
import { newId } from '../../lib/platform/ids.ts';
import type { Prober } from '../../lib/probes/types.ts';
import type { QueryInput, Table } from '../../lib/store/table.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { newCheck, newEntity, quietTcpCheck, uniqueSlug } from './check-fixtures.ts';

/**
 * Sparklines of pull checks in cells (issue 26's layout): the cell runner rolls up each finished
 * 5-minute bucket once, per member; the sparkline reads those rollups, the last buckets from the
 * cell's slots, and a migrated check's own older items too.
 */

const NOW = Date.parse('2026-03-01T12:02:00.000Z');
const at = (time: string) => Date.parse(`2026-03-01T${time}Z`);
/** Slots of a 1-minute cell from 11:50:30 to 11:59:30. */
const TEN_SLOTS = Array.from({ length: 10 }, (_, i) => `11:${50 + i}:30.000`);

/** A member's answer in a slot: [success, latency ms]. */
type Answer = [boolean, number];

describe.each(runtimes)('sparklines of pull checks in cells ($runtime runtime)', ({ start }) => {
  const clock = createFakeClock(NOW);
  let api: ApiHarness;

  beforeAll(async () => {
    api = await start({ clock });
  });
  afterAll(async () => {
    await api.close();
  });

  /**
   * Two pull checks of a new tenant, in one cell, and a runner of the cell's slots: each slot
   * answers per member (by port) as told, probed 200 ms after the slot.
   */
  async function twoMembers(intervalSeconds: number) {
    const tenant = await api.createTenant(uniqueSlug('Spark'));
    const entityId = await newEntity(api, { key: tenant.key });
    const ports = [9101, 9102] as const;
    const ids: string[] = [];
    for (const port of ports) {
      const body = quietTcpCheck(entityId, {
        interval_seconds: intervalSeconds,
        config: { host: '127.0.0.1', port },
      });
      ids.push(await newCheck(api, body, tenant.key));
    }
    const cells = await Promise.all(
      ids.map(async (id) => (await getCheckDefinition(api.table, tenant.tenantId, id))?.cell),
    );
    const cell = cells[0];
    if (!cell) throw new Error('an enabled pull check runs in a cell');
    expect(cells.map((c) => c?.cell_id)).toEqual([cell.cell_id, cell.cell_id]);

    let answers = new Map<number, Answer>();
    const prober: Prober = async (def) => {
      const [ok, latency] = answers.get(def.check_type === 'tcp' ? Number(def.port) : 0) ?? [true, 1];
      return {
        startedMs: clock.now(),
        outcome: { success: ok, status_code: 0, latency_ms: latency, error_message: ok ? '' : 'refused' },
      };
    };
    const runner = createCellRunner({ table: api.table, prober, tenants: api.app.tenants, clock });
    const run = async (time: string, a: Answer = [true, 10], b: Answer = [true, 10]) => {
      answers = new Map([
        [ports[0], a],
        [ports[1], b],
      ]);
      clock.set(at(time) + 200);
      try {
        return await runner.run({
          kind: 'cell',
          tenant_id: tenant.tenantId,
          cell_id: cell.cell_id,
          shard: cell.shard,
          slot_ms: at(time),
        });
      } finally {
        clock.set(NOW);
      }
    };
    const sparkline = async (id: string, query: string): Promise<Bucket[]> => {
      const res = await api.request('GET', `/v1/checks/${id}/sparkline?${query}`, { key: tenant.key });
      expect(res.status, res.text).toBe(200);
      return res.body.buckets;
    };
    return { tenant, ids: ids as [string, string], cellId: cell.cell_id, run, sparkline };
  }

  const rollupStarts = async (cellId: string) =>
    (await cellRollupsBetween(api.table, cellId, '2026-03-01T00:00:00.000Z', '2026-03-02T00:00:00.000Z')).map(
      (r) => r.bucket_start,
    );

  describe('a 1-minute cell', () => {
    let cell: Awaited<ReturnType<typeof twoMembers>>;

    beforeAll(async () => {
      cell = await twoMembers(60);
      const a: Answer[] = [
        [true, 40],
        [false, 200],
        [true, 300],
        [true, 100],
        [true, 50],
        ...Array.from({ length: 5 }, (): Answer => [true, 20]),
      ];
      for (const [i, time] of TEN_SLOTS.entries()) {
        await cell.run(time, a[i], i < 5 ? [true, 1000] : [false, 3000]);
      }
      await cell.run('12:00:30.000', [true, 7], [true, 1000]);
      await cell.run('12:01:30.000', [false, 9], [true, 1000]);
    });

    it('rolls up each finished bucket once, on the first slot of the next one', async () => {
      // 11:45 had no slot (nothing stored); 12:00 is in progress.
      expect(await rollupStarts(cell.cellId)).toEqual([
        '2026-03-01T11:50:00.000Z',
        '2026-03-01T11:55:00.000Z',
      ]);
    });

    it("counts each member's own results per bucket: failures, p50 and max", async () => {
      const [a, b] = await Promise.all([
        cell.sparkline(cell.ids[0], 'hours=1&buckets=12'),
        cell.sparkline(cell.ids[1], 'hours=1&buckets=12'),
      ]);
      expect(a[0]).toEqual({
        start: '2026-03-01T11:05:00.000Z',
        total: 0,
        failures: 0,
        p50_latency_ms: null,
        max_latency_ms: null,
      });
      expect(a.slice(9).map((x) => [x.start, x.total, x.failures, x.max_latency_ms])).toEqual([
        ['2026-03-01T11:50:00.000Z', 5, 1, 300],
        ['2026-03-01T11:55:00.000Z', 5, 0, 20],
        ['2026-03-01T12:00:00.000Z', 2, 1, 9],
      ]);
      // p50 from the histogram: within 10% (the nearest-rank medians are 100, 20 and 7).
      expect(Math.abs((a[9]?.p50_latency_ms ?? 0) - 100)).toBeLessThanOrEqual(10);
      expect(Math.abs((a[10]?.p50_latency_ms ?? 0) - 20)).toBeLessThanOrEqual(2);
      expect(a[11]?.p50_latency_ms).toBe(7);
      // The other member of the cell: its own counts only.
      expect(b.slice(9).map((x) => [x.total, x.failures, x.max_latency_ms])).toEqual([
        [5, 0, 1000],
        [5, 5, 3000],
        [2, 0, 1000],
      ]);
      expect(Math.abs((b[9]?.p50_latency_ms ?? 0) - 1000)).toBeLessThanOrEqual(100);
      expect(b.reduce((sum, x) => sum + x.total, 0)).toBe(12);
    });

    it('spans 30-minute buckets by default (24 hours in 48)', async () => {
      const a = await cell.sparkline(cell.ids[0], '');
      expect(a).toHaveLength(48);
      expect(a.at(-1)).toMatchObject({
        start: '2026-03-01T11:35:00.000Z',
        total: 12,
        failures: 2,
        max_latency_ms: 300,
      });
    });

    it('serves other bucket widths from the slots of the window, exactly', async () => {
      const a = await cell.sparkline(cell.ids[0], 'hours=1&buckets=7');
      expect(a.slice(5)).toEqual([
        // 11:47:51.428 to 11:56:25.714: the 11:50 bucket's five slots and 11:55:30.
        { start: '2026-03-01T11:47:51.428Z', total: 6, failures: 1, p50_latency_ms: 50, max_latency_ms: 300 },
        { start: '2026-03-01T11:56:25.714Z', total: 6, failures: 1, p50_latency_ms: 20, max_latency_ms: 20 },
      ]);
      expect(a.reduce((sum, x) => sum + x.total, 0)).toBe(12);
    });
  });

  it('writes a bucket once when its next bucket opens twice (a redelivered first slot)', async () => {
    const cell = await twoMembers(60);
    for (const time of TEN_SLOTS.slice(0, 5)) await cell.run(time, [true, 10], [false, 10]);
    const written: string[] = [];
    const transact = api.table.transact.bind(api.table);
    const spy = vi.spyOn(api.table, 'transact').mockImplementation(async (ops) => {
      await transact(ops);
      for (const op of ops)
        if (op.type === 'put' && op.item.entity === 'cell_rollup') written.push(op.item.sk);
    });
    try {
      expect(await cell.run('11:55:30.000')).toMatchObject({ status: 'recorded' });
      expect(await cell.run('11:55:30.000')).toMatchObject({ status: 'duplicate' });
      // A slot that is not the first of its bucket writes none.
      await cell.run('11:56:30.000');
    } finally {
      spy.mockRestore();
    }
    expect(written).toEqual(['ROLLUP#2026-03-01T11:50:00.000Z']);
    const [stored] = await cellRollupsBetween(
      api.table,
      cell.cellId,
      '2026-03-01T11:50:00.000Z',
      '2026-03-01T11:50:00.000Z',
    );
    expect(stored?.members[cell.ids[0]]).toMatchObject({ total: 5, failures: 0 });
    expect(stored?.members[cell.ids[1]]).toMatchObject({ total: 5, failures: 5 });
  });

  it('sums a finished bucket from its slots while its rollup is missing, reading at most the last two buckets', async () => {
    const cell = await twoMembers(60);
    // No slot of 12:00 ran: the 11:55 bucket has no rollup yet.
    for (const time of TEN_SLOTS) await cell.run(time, [false, 10]);
    expect(await rollupStarts(cell.cellId)).toEqual(['2026-03-01T11:50:00.000Z']);
    const queries: QueryInput[] = [];
    const table: Table = {
      get: (key, options) => api.table.get(key, options),
      batchGet: (keys) => api.table.batchGet(keys),
      query: (input) => {
        queries.push(input);
        return api.table.query(input);
      },
      transact: (ops) => api.table.transact(ops),
      update: (op) => api.table.update(op),
      close: () => api.table.close(),
    };
    const check = { id: cell.ids[0], cell: { cell_id: cell.cellId }, interval_seconds: 60 };
    const read = await readSparkline(table, check, { hours: 1, buckets: 12, nowMs: NOW });
    expect(read.buckets.slice(9).map((b) => [b.total, b.failures])).toEqual([
      [5, 5],
      [5, 5],
      [0, 0],
    ]);
    expect(queries.filter((q) => q.pk.startsWith('CELLRES#')).map((q) => q.sk)).toEqual([
      { op: 'between', low: 'ROLLUP#2026-03-01T11:05:00.000Z', high: 'ROLLUP#2026-03-01T12:00:00.000Z' },
      { op: 'between', low: 'RES#2026-03-01T11:55:00.000Z', high: 'RES#2026-03-01T12:04:59.999Z' },
    ]);
  });

  it('keeps no rollups for a cell of 5 minutes or more and reads its slots, one per bucket', async () => {
    const cell = await twoMembers(300);
    for (const time of ['11:50:30.000', '11:55:30.000', '12:00:30.000'])
      await cell.run(time, [true, 10], [false, 30]);
    expect(await rollupStarts(cell.cellId)).toEqual([]);
    const b = await cell.sparkline(cell.ids[1], 'hours=1&buckets=12');
    expect(b.slice(8).map((x) => [x.total, x.failures, x.max_latency_ms])).toEqual([
      [0, 0, null],
      [1, 1, 30],
      [1, 1, 30],
      [1, 1, 30],
    ]);
  });

  it("still shows a migrated check's per-check history beside its cell's buckets", async () => {
    const cell = await twoMembers(60);
    const [id] = cell.ids;
    // Results the per-check layout stored before the check moved into its cell: a result item and
    // its finished bucket's rollup each, as the recorder wrote them (it now refuses a cell member's).
    for (const [time, success, latency_ms] of [
      ['11:41:00.000', true, 70],
      ['11:46:00.000', false, 80],
    ] as const) {
      const checkedAtMs = at(time);
      const bucket = rollResult(undefined, { success, latency_ms, checkedAtMs }).current;
      if (!bucket) throw new Error('a first result opens its bucket');
      await api.table.transact([
        resultRecordedOp(
          {
            id: newId('res', checkedAtMs),
            check_id: id,
            status_code: 0,
            latency_ms,
            success,
            error_message: success ? '' : 'connection refused',
            checked_at: isoTime(checkedAtMs),
          },
          { ttl: Math.floor(NOW / 1000) + 30 * 86_400 },
        ),
        rollupAddOp(id, bucket, 30),
      ]);
    }
    for (const time of TEN_SLOTS.slice(0, 6)) await cell.run(time, [true, 10]);
    const aligned = await cell.sparkline(id, 'hours=1&buckets=12');
    expect(aligned.slice(7).map((x) => [x.start.slice(11, 16), x.total, x.failures])).toEqual([
      ['11:40', 1, 0],
      ['11:45', 1, 1],
      ['11:50', 5, 0],
      ['11:55', 1, 0],
      ['12:00', 0, 0],
    ]);
    const raw = await cell.sparkline(id, 'hours=1&buckets=7');
    expect(raw.reduce((sum, x) => sum + x.total, 0)).toBe(8);
    expect(raw.reduce((sum, x) => sum + x.failures, 0)).toBe(1);
  });
});
