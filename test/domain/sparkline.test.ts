import { describe, expect, it } from 'vitest';
import {
  addToRollup,
  bucketize,
  emptyRollup,
  mergeRollups,
  p50FromRollup,
  type ResultSample,
  ROLLUP_HISTOGRAM_SIZE,
  type Rollup,
} from '../../lib/domain/rollups/sparkline.ts';

const HOUR = 3_600_000;
const END = Date.parse('2026-01-02T00:00:00.000Z');

function sample(checked_at_ms: number, latency_ms = 100, success = true): ResultSample {
  return { checked_at_ms, success, latency_ms };
}

/** A small deterministic PRNG (mulberry32) so "random" cases are repeatable. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function trueP50(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil(sorted.length / 2) - 1] ?? Number.NaN;
}

const rollupOf = (latencies: readonly number[], success = true): Rollup =>
  latencies.reduce((r, latency_ms) => addToRollup(r, { success, latency_ms }), emptyRollup());

const ERROR_RATIO = 2 ** (1 / 8) - 1;

describe('bucketize', () => {
  describe('validation', () => {
    it.each([0, 721, -1, 1.5, Number.NaN])('rejects hours %s with a RangeError naming hours', (hours) => {
      const act = () => bucketize([], { endMs: END, hours, buckets: 10 });

      expect(act).toThrow(RangeError);
      expect(act).toThrow(/^hours must be an integer from 1 to 720, got /);
    });

    it.each([0, 501, -3, 2.5, Number.POSITIVE_INFINITY])(
      'rejects buckets %s with a RangeError naming buckets',
      (buckets) => {
        const act = () => bucketize([], { endMs: END, hours: 24, buckets });

        expect(act).toThrow(RangeError);
        expect(act).toThrow(/^buckets must be an integer from 1 to 500, got /);
      },
    );

    it.each([
      [1, 1],
      [720, 500],
      [1, 500],
      [720, 1],
    ])('accepts hours %s with buckets %s', (hours, buckets) => {
      expect(bucketize([], { endMs: END, hours, buckets })).toHaveLength(buckets);
    });
  });

  it('returns empty buckets with nulls, evenly spaced and oldest first, when there are no results', () => {
    const buckets = bucketize([], { endMs: END, hours: 24, buckets: 48 });

    expect(buckets).toHaveLength(48);
    expect(buckets[0]).toEqual({
      start: '2026-01-01T00:00:00.000Z',
      total: 0,
      failures: 0,
      p50_latency_ms: null,
      max_latency_ms: null,
    });
    expect(buckets[1]?.start).toBe('2026-01-01T00:30:00.000Z');
    expect(buckets.at(-1)?.start).toBe('2026-01-01T23:30:00.000Z');
  });

  it('summarizes a single result in its bucket', () => {
    const buckets = bucketize([sample(END - 90 * 60_000, 42, false)], { endMs: END, hours: 3, buckets: 3 });

    expect(buckets).toEqual([
      {
        start: '2026-01-01T21:00:00.000Z',
        total: 0,
        failures: 0,
        p50_latency_ms: null,
        max_latency_ms: null,
      },
      { start: '2026-01-01T22:00:00.000Z', total: 1, failures: 1, p50_latency_ms: 42, max_latency_ms: 42 },
      {
        start: '2026-01-01T23:00:00.000Z',
        total: 0,
        failures: 0,
        p50_latency_ms: null,
        max_latency_ms: null,
      },
    ]);
  });

  it('includes the window start and excludes the window end', () => {
    const start = END - 2 * HOUR;
    const results = [sample(start - 1), sample(start, 1), sample(END - 1, 2), sample(END)];

    const buckets = bucketize(results, { endMs: END, hours: 2, buckets: 2 });

    expect(buckets.map((b) => [b.total, b.max_latency_ms])).toEqual([
      [1, 1],
      [1, 2],
    ]);
  });

  it('puts a result exactly on an inner boundary into the later bucket', () => {
    const boundary = END - HOUR;

    const buckets = bucketize([sample(boundary - 1, 1), sample(boundary, 2)], {
      endMs: END,
      hours: 2,
      buckets: 2,
    });

    expect(buckets.map((b) => b.max_latency_ms)).toEqual([1, 2]);
  });

  it('splits a window that does not divide evenly on whole-millisecond boundaries', () => {
    const buckets = bucketize([], { endMs: END, hours: 1, buckets: 7 });
    const starts = buckets.map((b) => Date.parse(b.start));
    const widths = starts.map((s, i) => (starts[i + 1] ?? END) - s);

    expect(starts[0]).toBe(END - HOUR);
    expect(Math.max(...widths) - Math.min(...widths)).toBeLessThanOrEqual(1);
    expect(widths.reduce((a, b) => a + b, 0)).toBe(HOUR);
  });

  it('places every result in the bucket whose [start, next start) holds it, for uneven splits', () => {
    for (const [hours, buckets] of [
      [1, 7],
      [5, 333],
      [720, 499],
      [24, 48],
    ] as const) {
      const span = hours * HOUR;
      const boundaries = Array.from(
        { length: buckets },
        (_, i) => END - span + Math.floor((i * span) / buckets),
      );
      const times = boundaries.flatMap((b) => [b - 1, b, b + 1]).filter((t) => t >= END - span && t < END);
      const results = times.map((t) => sample(t, t));

      const out = bucketize(results, { endMs: END, hours, buckets });

      const starts = out.map((b) => Date.parse(b.start));
      expect(starts).toEqual(boundaries);
      for (const [i, bucket] of out.entries()) {
        const high = starts[i + 1] ?? END;
        const inside = times.filter((t) => t >= (starts[i] ?? 0) && t < high);
        expect(bucket.total, `hours ${hours} buckets ${buckets} bucket ${i}`).toBe(inside.length);
        expect(bucket.max_latency_ms).toBe(inside.length > 0 ? Math.max(...inside) : null);
      }
    }
  });

  it('ignores results outside the window', () => {
    const results = [sample(END - 25 * HOUR), sample(END + 1), sample(END + HOUR)];

    const buckets = bucketize(results, { endMs: END, hours: 24, buckets: 4 });

    expect(buckets.every((b) => b.total === 0)).toBe(true);
  });

  it('counts failures and includes failed results in p50 and max latency', () => {
    const t = END - 10;
    const results = [
      sample(t, 10, true),
      sample(t, 20, true),
      sample(t, 5000, false),
      sample(t, 9000, false),
    ];

    const [bucket] = bucketize(results, { endMs: END, hours: 1, buckets: 1 });

    expect(bucket).toMatchObject({ total: 4, failures: 2, p50_latency_ms: 20, max_latency_ms: 9000 });
  });

  it.each<[number[], number]>([
    [[7], 7],
    [[5, 1, 3], 3],
    [[40, 10, 30, 20], 20],
    [[1, 2, 3, 4, 5], 3],
    [[9, 9, 1, 1, 1, 9], 1],
    [[0, 0], 0],
  ])('takes the nearest-rank p50 of %j as %s', (latencies, p50) => {
    const results = latencies.map((latency) => sample(END - 1, latency));

    const [bucket] = bucketize(results, { endMs: END, hours: 1, buckets: 1 });

    expect(bucket?.p50_latency_ms).toBe(p50);
    expect(bucket?.max_latency_ms).toBe(Math.max(...latencies));
  });

  it('does not reorder or mutate its input', () => {
    const results = [sample(END - 1, 3), sample(END - 2, 1), sample(END - 3, 2)];
    const copy = structuredClone(results);

    bucketize(results, { endMs: END, hours: 1, buckets: 1 });

    expect(results).toEqual(copy);
  });
});

describe('rollups', () => {
  it('has a fixed histogram of 70 buckets', () => {
    expect(ROLLUP_HISTOGRAM_SIZE).toBe(70);
  });

  it('starts empty, with no p50', () => {
    const rollup = emptyRollup();

    expect(rollup).toEqual({
      total: 0,
      failures: 0,
      latency_sum: 0,
      latency_max: 0,
      histogram: new Array(70).fill(0),
    });
    expect(p50FromRollup(rollup)).toBeNull();
  });

  it('counts a result into totals, failures, sum, max and one histogram bucket', () => {
    const rollup = addToRollup(addToRollup(emptyRollup(), { success: true, latency_ms: 120 }), {
      success: false,
      latency_ms: 3000,
    });

    expect(rollup).toMatchObject({ total: 2, failures: 1, latency_sum: 3120, latency_max: 3000 });
    expect(rollup.histogram.reduce((a, b) => a + b, 0)).toBe(2);
  });

  it('returns a new rollup and leaves the one it was given untouched', () => {
    const before = emptyRollup();

    const after = addToRollup(before, { success: true, latency_ms: 5 });

    expect(before).toEqual(emptyRollup());
    expect(after).not.toBe(before);
  });

  it.each<[number, number]>([
    [0, 0],
    [0.5, 0],
    [1, 1],
    [1.9, 4],
    [2, 5],
    [4, 9],
    [1024, 41],
    [131_071, 68],
    [131_072, 69],
    [10_000_000, 69],
  ])('puts latency %s ms in histogram bucket %s', (latency_ms, index) => {
    const rollup = addToRollup(emptyRollup(), { success: true, latency_ms });

    expect(rollup.histogram.indexOf(1)).toBe(index);
  });

  it.each([-1, Number.NaN, Number.POSITIVE_INFINITY])('rejects latency %s', (latency_ms) => {
    expect(() => addToRollup(emptyRollup(), { success: true, latency_ms })).toThrow(RangeError);
  });

  it('rejects a histogram with a different layout in every operation', () => {
    const bad: Rollup = { ...emptyRollup(), total: 1, histogram: [1] };

    expect(() => addToRollup(bad, { success: true, latency_ms: 1 })).toThrow(RangeError);
    expect(() => mergeRollups([emptyRollup(), bad])).toThrow(RangeError);
    expect(() => p50FromRollup(bad)).toThrow(RangeError);
  });

  describe('mergeRollups', () => {
    it('merges nothing into an empty rollup', () => {
      expect(mergeRollups([])).toEqual(emptyRollup());
    });

    it('equals one rollup of all the results, however they were split', () => {
      const random = prng(7);
      const results = Array.from({ length: 300 }, () => ({
        success: random() > 0.2,
        latency_ms: Math.floor(random() ** 3 * 20_000),
      }));
      const whole = results.reduce(addToRollup, emptyRollup());

      const parts = [results.slice(0, 1), results.slice(1, 120), results.slice(120, 120), results.slice(120)];
      const merged = mergeRollups(parts.map((part) => part.reduce(addToRollup, emptyRollup())));

      expect(merged).toEqual(whole);
    });

    it('does not depend on order and does not mutate its inputs', () => {
      const a = rollupOf([1, 50, 900]);
      const b = rollupOf([3, 70_000], false);
      const copies = structuredClone([a, b]);

      expect(mergeRollups([a, b])).toEqual(mergeRollups([b, a]));
      expect([a, b]).toEqual(copies);
    });
  });

  describe('p50FromRollup', () => {
    it('is exact for a p50 of 0 and for small whole latencies', () => {
      for (const value of [0, 1, 2, 3, 4, 5]) {
        expect(p50FromRollup(rollupOf([value, value, value]))).toBe(value);
      }
    });

    it('caps the estimate at the maximum latency', () => {
      // 95 ms lies in [90.5, 107.6) ms, whose midpoint 98.7 ms is above every recorded latency.
      expect(p50FromRollup(rollupOf([95]))).toBe(95);
    });

    it('uses the lower half on an even count, like nearest rank', () => {
      const rollup = rollupOf([10, 10, 1000, 1000]);

      expect(p50FromRollup(rollup)).toBe(10);
    });

    it('counts failed results too', () => {
      const rollup = mergeRollups([rollupOf([10]), rollupOf([5000, 5000], false)]);

      expect(p50FromRollup(rollup)).toBeGreaterThan(4000);
    });

    it('stays within 9.05% + 0.5 ms of every whole latency below 131,072 ms', () => {
      for (let value = 0; value < 131_072; value += 1) {
        const estimate = p50FromRollup(rollupOf([value])) ?? Number.NaN;

        if (Math.abs(estimate - value) > ERROR_RATIO * value + 0.5) {
          expect.fail(`estimate ${estimate} for ${value}`);
        }
      }
    });

    it('stays within the bound of the nearest-rank p50 of random samples', () => {
      const random = prng(42);
      for (let round = 0; round < 500; round += 1) {
        const size = 1 + Math.floor(random() * 60);
        const scale = 10 ** (random() * 5);
        const values = Array.from({ length: size }, () => Math.floor(random() * scale));
        const truth = trueP50(values);

        const estimate = p50FromRollup(rollupOf(values)) ?? Number.NaN;

        expect(Math.abs(estimate - truth), `${values}`).toBeLessThanOrEqual(ERROR_RATIO * truth + 0.5);
      }
    });

    it('returns the maximum latency when the p50 lies at or above 131,072 ms', () => {
      expect(p50FromRollup(rollupOf([200_000, 150_000, 300_000]))).toBe(300_000);
    });

    it('agrees with bucketize within the bound on the same results', () => {
      const random = prng(99);
      const results = Array.from({ length: 200 }, (_, i) =>
        sample(END - 1 - i * 1000, Math.floor(50 + random() * 400), random() > 0.1),
      );
      const [bucket] = bucketize(results, { endMs: END, hours: 1, buckets: 1 });
      const truth = bucket?.p50_latency_ms ?? Number.NaN;

      const estimate = p50FromRollup(results.reduce(addToRollup, emptyRollup())) ?? Number.NaN;

      expect(Math.abs(estimate - truth)).toBeLessThanOrEqual(ERROR_RATIO * truth + 0.5);
    });
  });
});
