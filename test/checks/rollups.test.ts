import { describe, expect, it } from 'vitest';
import { rollupAddOp } from '../../lib/checks/items/rollup-items.ts';
import { rollResult } from '../../lib/domain/rollups/rollup-bucket.ts';
import { histogramIndex } from '../../lib/domain/rollups/sparkline.ts';

const at = (time: string) => Date.parse(`2026-03-01T${time}Z`);
const ok = (time: string, latency_ms: number) => ({ success: true, latency_ms, checkedAtMs: at(time) });
const failed = (time: string, latency_ms: number) => ({ success: false, latency_ms, checkedAtMs: at(time) });

describe('rollResult (a check keeps its current 5-minute bucket)', () => {
  it('starts the current bucket with the first result, writing no rollup item', () => {
    expect(rollResult(undefined, ok('12:01:30.000', 40))).toEqual({
      current: {
        bucket_start: '2026-03-01T12:00:00.000Z',
        total: 1,
        failures: 0,
        latency_sum: 40,
        counts: { [histogramIndex(40)]: 1 },
      },
    });
  });

  it('adds results of the same bucket to the current one', () => {
    const first = rollResult(undefined, ok('12:00:00.000', 40)).current;
    const change = rollResult(first, failed('12:04:59.999', 40));
    expect(change.stored).toBeUndefined();
    expect(change.current).toEqual({
      bucket_start: '2026-03-01T12:00:00.000Z',
      total: 2,
      failures: 1,
      latency_sum: 80,
      counts: { [histogramIndex(40)]: 2 },
    });
    expect(first?.total).toBe(1); // not mutated
  });

  it('moves the finished bucket to its rollup item (an add, so buckets written twice sum) when a later one starts', () => {
    let current = rollResult(undefined, ok('12:01:00.000', 10)).current;
    current = rollResult(current, failed('12:02:00.000', 300)).current;
    const change = rollResult(current, ok('12:05:00.000', 20));
    expect(change.current).toMatchObject({ bucket_start: '2026-03-01T12:05:00.000Z', total: 1, failures: 0 });
    expect(change.stored && rollupAddOp('chk_a', change.stored, 30)).toEqual({
      type: 'update',
      key: { pk: 'CHECK#chk_a', sk: 'ROLLUP#2026-03-01T12:00:00.000Z' },
      set: {
        entity: 'rollup',
        schema_version: 1,
        check_id: 'chk_a',
        bucket_start: '2026-03-01T12:00:00.000Z',
        ttl: at('12:00:00.000') / 1000 + 30 * 86_400,
      },
      add: {
        total: 2,
        failures: 1,
        latency_sum: 310,
        [`h${histogramIndex(10)}`]: 1,
        [`h${histogramIndex(300)}`]: 1,
      },
    });
  });

  it('adds a late result to its own bucket item and leaves the current bucket as it is', () => {
    const current = rollResult(undefined, ok('12:06:00.000', 10)).current;
    const change = rollResult(current, failed('11:59:00.000', 50));
    expect(change.current).toBeUndefined();
    expect(change.stored && rollupAddOp('chk_a', change.stored, 7)).toMatchObject({
      key: { sk: 'ROLLUP#2026-03-01T11:55:00.000Z' },
      set: { ttl: at('11:55:00.000') / 1000 + 7 * 86_400 },
      add: { total: 1, failures: 1, latency_sum: 50, [`h${histogramIndex(50)}`]: 1 },
    });
  });
});
