import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSparkline } from '../../lib/checks/results/sparkline-reads.ts';
import type { SparklineBucket as Bucket } from '../../lib/domain/rollups/sparkline.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import type { QueryInput, Table } from '../../lib/store/table.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { newCheck, newEntity, quietPushCheck, record } from './check-fixtures.ts';

const NOW = Date.parse('2026-03-01T12:02:00.000Z');
const at = (time: string) => Date.parse(`2026-03-01T${time}Z`);

/** A table that remembers every query, for asserting what a read touches. */
function queryRecorder(table: Table, queries: QueryInput[]): Table {
  return {
    get: (key, options) => table.get(key, options),
    batchGet: (keys) => table.batchGet(keys),
    query: (input) => {
      queries.push(input);
      return table.query(input);
    },
    transact: (ops) => table.transact(ops),
    update: (op) => table.update(op),
    close: () => table.close(),
  };
}

/**
 * The sparkline of a check in the per-check layout (its own rollup and result items): push checks,
 * whose results the recorder writes. Pull checks in cells: test/checks/cell-sparkline.test.ts.
 */
describe.each(runtimes)('GET /v1/checks/{id}/sparkline ($runtime runtime)', ({ start }) => {
  const clock = createFakeClock(NOW);
  let api: ApiHarness;
  let checkId: string;
  const get = (path: string, key = api.adminKey) => api.request('GET', path, { key });
  const bucketAt = (buckets: Bucket[], time: string) =>
    buckets.findLast((b) => Date.parse(b.start) <= at(time));

  beforeAll(async () => {
    api = await start({ clock });
    checkId = await newCheck(api, quietPushCheck(await newEntity(api)));
    const samples: [string, boolean, number][] = [
      ['08:00:00.000', true, 40], // outside a one-hour window, inside the 24-hour one
      ['11:52:10.000', true, 100],
      ['11:53:00.000', false, 200],
      ['11:54:00.000', true, 300],
      ['12:01:00.000', true, 50],
    ];
    for (const [time, success, latency_ms] of samples) {
      await record(api, checkId, { success, latency_ms, checkedAtMs: at(time) });
    }
  });
  afterAll(async () => {
    await api.close();
  });

  it('serves 5-minute-aligned buckets from the rollups: counts exact, latencies estimated within 10%', async () => {
    const res = await get(`/v1/checks/${checkId}/sparkline?hours=1&buckets=12`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      check_id: checkId,
      start: '2026-03-01T11:05:00.000Z',
      end: '2026-03-01T12:05:00.000Z',
    });
    const buckets: Bucket[] = res.body.buckets;
    expect(buckets).toHaveLength(12);
    expect(buckets[0]).toEqual({
      start: '2026-03-01T11:05:00.000Z',
      total: 0,
      failures: 0,
      p50_latency_ms: null,
      max_latency_ms: null,
    });
    const busy = buckets[9];
    expect(busy).toMatchObject({ start: '2026-03-01T11:50:00.000Z', total: 3, failures: 1 });
    expect(Math.abs((busy?.p50_latency_ms ?? 0) - 200)).toBeLessThanOrEqual(20);
    expect(Math.abs((busy?.max_latency_ms ?? 0) - 300)).toBeLessThanOrEqual(30);
    // A histogram estimate, not the raw value: this is how the read shows where it came from.
    expect(busy?.p50_latency_ms).not.toBe(200);
    expect(buckets[11]).toMatchObject({ start: '2026-03-01T12:00:00.000Z', total: 1, failures: 0 });
    expect(buckets.reduce((sum, b) => sum + b.total, 0)).toBe(4);
  });

  it('defaults to 24 hours in 48 buckets', async () => {
    const res = await get(`/v1/checks/${checkId}/sparkline`);
    expect(res.status).toBe(200);
    expect(res.body.start).toBe('2026-02-28T12:05:00.000Z');
    const buckets: Bucket[] = res.body.buckets;
    expect(buckets).toHaveLength(48);
    expect(buckets[1]?.start).toBe('2026-02-28T12:35:00.000Z');
    expect(bucketAt(buckets, '08:00:00.000')).toMatchObject({ total: 1, failures: 0 });
    expect(buckets.at(-1)).toMatchObject({ start: '2026-03-01T11:35:00.000Z', total: 4, failures: 1 });
  });

  it('serves other bucket widths from the raw results of the window, with exact latencies', async () => {
    const res = await get(`/v1/checks/${checkId}/sparkline?hours=1&buckets=7`);
    expect(res.status, res.text).toBe(200);
    const buckets: Bucket[] = res.body.buckets;
    expect(buckets).toHaveLength(7);
    expect(buckets[0]?.start).toBe('2026-03-01T11:05:00.000Z');
    expect(bucketAt(buckets, '11:52:10.000')).toEqual({
      start: '2026-03-01T11:47:51.428Z',
      total: 3,
      failures: 1,
      p50_latency_ms: 200,
      max_latency_ms: 300,
    });
    expect(bucketAt(buckets, '12:01:00.000')).toMatchObject({
      total: 1,
      p50_latency_ms: 50,
      max_latency_ms: 50,
    });
    expect(buckets.reduce((sum, b) => sum + b.total, 0)).toBe(4);
  });

  it('reads only the rollups of the window, or only the results of the window, never the whole history', async () => {
    const queries: QueryInput[] = [];
    const table = queryRecorder(api.table, queries);
    await readSparkline(table, { id: checkId }, { hours: 1, buckets: 12, nowMs: NOW });
    await readSparkline(table, { id: checkId }, { hours: 1, buckets: 7, nowMs: NOW });
    expect(queries.map((q) => q.sk)).toEqual([
      { op: 'between', low: 'ROLLUP#2026-03-01T11:05:00.000Z', high: 'ROLLUP#2026-03-01T12:00:00.000Z' },
      { op: 'between', low: 'RES#2026-03-01T11:05:00.000Z', high: 'RES#2026-03-01T12:05:00.000Z' },
    ]);
  });

  it('keeps the current bucket on the check (no rollup item per result), never in the API, and counts late results', async () => {
    const own = await newCheck(api, quietPushCheck(await newEntity(api)));
    const rollupItems = async () =>
      (await api.table.query({ pk: `CHECK#${own}`, sk: { op: 'beginsWith', prefix: 'ROLLUP#' } })).items;
    await record(api, own, { success: true, latency_ms: 10, checkedAtMs: at('11:56:00.000') });
    await record(api, own, { success: true, latency_ms: 20, checkedAtMs: at('11:58:00.000') });
    expect(await rollupItems()).toEqual([]);
    await record(api, own, { success: false, latency_ms: 30, checkedAtMs: at('12:01:00.000') });
    expect((await rollupItems()).map((item) => [item.sk, item.total])).toEqual([
      ['ROLLUP#2026-03-01T11:55:00.000Z', 2],
    ]);
    // Late: its bucket (11:55) has moved on; it is added to that bucket's item.
    await record(api, own, { success: false, latency_ms: 40, checkedAtMs: at('11:59:00.000') });
    const view = await get(`/v1/checks/${own}`);
    expect(view.status).toBe(200);
    expect(view.body).not.toHaveProperty('current_rollup');
    const buckets: Bucket[] = (await get(`/v1/checks/${own}/sparkline?hours=1&buckets=12`)).body.buckets;
    expect(bucketAt(buckets, '11:55:00.000')).toMatchObject({ total: 3, failures: 1 });
    expect(bucketAt(buckets, '12:00:00.000')).toMatchObject({ total: 1, failures: 1 });
  });

  it.each([
    ['hours=0', 'hours'],
    ['hours=721', 'hours'],
    ['hours=abc', 'hours'],
    ['buckets=0', 'buckets'],
    ['buckets=501', 'buckets'],
    ['buckets=1.5', 'buckets'],
  ])('rejects %s with 400 VALIDATION_ERROR', async (query, path) => {
    const res = await get(`/v1/checks/${checkId}/sparkline?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.details.map((d: { path: string }) => d.path)).toEqual([path]);
  });

  it('lets a read-only key read the sparkline', async () => {
    const viewer = (
      await api.request('POST', '/v1/auth/keys', {
        key: api.adminKey,
        body: { label: 'viewer', is_read_only: true },
      })
    ).body.key;
    const res = await get(`/v1/checks/${checkId}/sparkline?hours=720&buckets=500`, viewer);
    expect(res.status, res.text).toBe(200);
    expect(res.body.buckets).toHaveLength(500);
  });
});
