import { describe, expect, it } from 'vitest';
import {
  estimateMaxLatency,
  RAW_SPARKLINE_MAX_RESULTS,
  readSparkline,
} from '../../lib/checks/results/sparkline-reads.ts';
import { histogramIndex, ROLLUP_HISTOGRAM_SIZE } from '../../lib/domain/rollups/sparkline.ts';
import { ValidationError } from '../../lib/platform/errors.ts';
import type { Item, QueryInput, Table } from '../../lib/store/table.ts';
import { queryOnlyTable } from '../support/query-only-table.ts';

function histogramOf(latencies: number[]): number[] {
  const histogram = new Array<number>(ROLLUP_HISTOGRAM_SIZE).fill(0);
  for (const latency of latencies) {
    const i = histogramIndex(latency);
    histogram[i] = (histogram[i] ?? 0) + 1;
  }
  return histogram;
}

const estimate = (latencies: number[]) =>
  estimateMaxLatency(
    histogramOf(latencies),
    latencies.length,
    latencies.reduce((a, b) => a + b, 0),
  );

describe('estimateMaxLatency', () => {
  it('lands inside the histogram bucket of the true maximum, for every bucket', () => {
    for (let i = 1; i < ROLLUP_HISTOGRAM_SIZE - 1; i += 1) {
      const lower = 2 ** ((i - 1) / 4);
      expect(histogramIndex(estimate([lower])), `bucket ${i}`).toBe(i);
    }
  });

  it.each([5, 42, 100, 300, 999, 12_345, 59_999])('is within 10%% of a maximum of %i ms', (max) => {
    expect(Math.abs(estimate([1, 2, max]) - max) / max).toBeLessThan(0.1);
  });

  it('is never below the mean', () => {
    // All in one bucket, all above its midpoint: the mean is the better lower bound.
    expect(estimate([106, 107, 107])).toBeCloseTo(320 / 3, 5);
  });

  it('is 0 for sub-millisecond latencies and for an empty histogram, and 2^17 ms and up in the open bucket', () => {
    expect(estimate([0, 0])).toBe(0);
    expect(estimate([])).toBe(0);
    expect(estimate([200_000])).toBe(200_000);
    expect(estimate([1, 150_000, 1])).toBe(2 ** 17);
  });
});

describe('readSparkline', () => {
  /** A table whose every query answers a full page of results and says more follow. */
  function endlessResults(queries: QueryInput[]): Table {
    const page = (n: number): Item[] =>
      Array.from({ length: 1000 }, (_, i) => ({
        pk: 'CHECK#chk_x',
        sk: `RES#2026-03-01T11:30:00.000Z#${n}-${i}`,
        entity: 'result',
        id: `res_${n}_${i}`,
        check_id: 'chk_x',
        status_code: 0,
        latency_ms: 5,
        success: true,
        error_message: '',
        checked_at: '2026-03-01T11:30:00.000Z',
      }));
    return queryOnlyTable(queries, () => ({ items: page(queries.length), cursor: `page-${queries.length}` }));
  }

  it(`stops reading raw results after ${RAW_SPARKLINE_MAX_RESULTS} and answers a VALIDATION_ERROR about buckets`, async () => {
    const queries: QueryInput[] = [];
    const read = readSparkline(
      endlessResults(queries),
      { id: 'chk_x' },
      {
        hours: 1,
        buckets: 7,
        nowMs: Date.parse('2026-03-01T12:02:00.000Z'),
      },
    );
    await expect(read).rejects.toBeInstanceOf(ValidationError);
    await expect(read).rejects.toMatchObject({ details: [{ path: 'buckets' }] });
    expect(queries.length).toBe(RAW_SPARKLINE_MAX_RESULTS / 1000 + 1);
  });
});
