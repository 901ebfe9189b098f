/**
 * Sparkline buckets and latency rollups. Pure: times are passed in, nothing is read or written.
 *
 * Latency statistics always cover every result, successful and failed: a probe that times out
 * or is refused still took that long, and hiding failures would flatter a failing check.
 */
import { isoTime } from '../formats/iso-time.ts';

export interface ResultSample {
  checked_at_ms: number;
  success: boolean;
  latency_ms: number;
}

export interface SparklineOptions {
  endMs: number;
  hours: number;
  buckets: number;
}

export interface SparklineBucket {
  /** ISO 8601 start of the bucket (inclusive). */
  start: string;
  total: number;
  failures: number;
  p50_latency_ms: number | null;
  max_latency_ms: number | null;
}

export const SPARKLINE_MAX_HOURS = 720;
export const SPARKLINE_MAX_BUCKETS = 500;

const HOUR_MS = 3_600_000;

/**
 * Splits [endMs - hours, endMs) into `buckets` equal buckets, oldest first, and summarizes the
 * results in each; results outside the window are ignored. Boundaries are whole milliseconds
 * (`start + floor(i * span / buckets)`), so buckets differ in width by at most 1 ms.
 * p50 is the nearest-rank median (the ceil(n/2)-th smallest latency); empty buckets have nulls.
 * RangeError when hours is not an integer 1..720 or buckets not an integer 1..500: callers parse
 * both at their boundary (sparklineQuery), so reaching it here is a bug, not a bad request.
 */
export function bucketize(results: readonly ResultSample[], options: SparklineOptions): SparklineBucket[] {
  const { endMs, hours, buckets } = options;
  assertIntegerInRange('hours', hours, SPARKLINE_MAX_HOURS);
  assertIntegerInRange('buckets', buckets, SPARKLINE_MAX_BUCKETS);
  const span = hours * HOUR_MS;
  const startMs = endMs - span;
  const boundary = (i: number): number => startMs + Math.floor((i * span) / buckets);
  const latencies: number[][] = Array.from({ length: buckets }, () => []);
  const failures: number[] = new Array<number>(buckets).fill(0);

  for (const result of results) {
    const t = result.checked_at_ms;
    if (!(t >= startMs && t < endMs)) continue;
    let i = Math.min(buckets - 1, Math.floor(((t - startMs) * buckets) / span));
    // Boundaries are floored, so a time exactly on one can divide into the bucket before it.
    if (i < buckets - 1 && t >= boundary(i + 1)) i += 1;
    latencies[i]?.push(result.latency_ms);
    if (!result.success) failures[i] = (failures[i] ?? 0) + 1;
  }

  return latencies.map((values, i) => {
    const sorted = [...values].sort((a, b) => a - b);
    return {
      start: isoTime(boundary(i)),
      total: sorted.length,
      failures: failures[i] ?? 0,
      p50_latency_ms: nearestRank(sorted, 0.5),
      max_latency_ms: sorted.at(-1) ?? null,
    };
  });
}

/** Nearest-rank percentile of an ascending array (the ceil(q·n)-th smallest), or null when empty. */
function nearestRank(sortedAscending: readonly number[], q: number): number | null {
  if (sortedAscending.length === 0) return null;
  const rank = Math.max(1, Math.ceil(q * sortedAscending.length));
  return sortedAscending[rank - 1] ?? null;
}

function assertIntegerInRange(field: string, value: number, max: number): void {
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new RangeError(`${field} must be an integer from 1 to ${max}, got ${value}`);
  }
}

/**
 * A pre-aggregated summary of results, kept per check per time bucket so reads never scan raw
 * results. `histogram[i]` counts latencies in fixed log-scale buckets: index 0 holds [0, 1) ms,
 * index i (1..68) holds [2^((i-1)/4), 2^(i/4)) ms, four per doubling, and the last index holds
 * everything from 2^17 = 131,072 ms up. The layout is fixed; a stored histogram of another length
 * is rejected rather than misread.
 */
export interface Rollup {
  total: number;
  failures: number;
  latency_sum: number;
  latency_max: number;
  histogram: number[];
}

const STEPS_PER_DOUBLING = 4;
const TOP_EXPONENT = 17;
/** Exclusive upper bounds of every histogram bucket but the last (open-ended) one. */
const UPPER_BOUNDS_MS: readonly number[] = Array.from(
  { length: STEPS_PER_DOUBLING * TOP_EXPONENT + 1 },
  (_, i) => 2 ** (i / STEPS_PER_DOUBLING),
);
/** Number of histogram buckets in every Rollup (70). */
export const ROLLUP_HISTOGRAM_SIZE = UPPER_BOUNDS_MS.length + 1;

/** A rollup of no results. */
export function emptyRollup(): Rollup {
  return {
    total: 0,
    failures: 0,
    latency_sum: 0,
    latency_max: 0,
    histogram: new Array<number>(ROLLUP_HISTOGRAM_SIZE).fill(0),
  };
}

/** Returns a new rollup with one more result counted; RangeError on a negative or non-finite latency. */
export function addToRollup(rollup: Rollup, result: { success: boolean; latency_ms: number }): Rollup {
  assertHistogramLayout(rollup);
  const latency = result.latency_ms;
  if (!Number.isFinite(latency) || latency < 0) {
    throw new RangeError(`latency must be a finite number >= 0, got ${latency}`);
  }
  const histogram = [...rollup.histogram];
  const i = histogramIndex(latency);
  histogram[i] = (histogram[i] ?? 0) + 1;
  return {
    total: rollup.total + 1,
    failures: rollup.failures + (result.success ? 0 : 1),
    latency_sum: rollup.latency_sum + latency,
    latency_max: Math.max(rollup.latency_max, latency),
    histogram,
  };
}

/** Combines rollups (for example, the 30-minute items covering one sparkline bucket) into one. */
export function mergeRollups(rollups: readonly Rollup[]): Rollup {
  const merged = emptyRollup();
  for (const rollup of rollups) {
    assertHistogramLayout(rollup);
    merged.total += rollup.total;
    merged.failures += rollup.failures;
    merged.latency_sum += rollup.latency_sum;
    merged.latency_max = Math.max(merged.latency_max, rollup.latency_max);
    rollup.histogram.forEach((count, i) => {
      merged.histogram[i] = (merged.histogram[i] ?? 0) + count;
    });
  }
  return merged;
}

/**
 * Approximate nearest-rank p50 in whole ms, or null for an empty rollup. It finds the histogram
 * bucket holding the ceil(n/2)-th latency and returns that bucket's geometric midpoint (capped at
 * latency_max). Error bound: for a true p50 v below 131,072 ms the estimate is within
 * (2^(1/8) - 1)·v ≈ 9.05% of v, plus 0.5 ms from rounding; a true p50 of 0 is exact. At or above
 * 131,072 ms the estimate is latency_max, which is only an upper bound.
 */
export function p50FromRollup(rollup: Rollup): number | null {
  assertHistogramLayout(rollup);
  if (rollup.total === 0) return null;
  const rank = Math.ceil(rollup.total / 2);
  let seen = 0;
  for (const [i, count] of rollup.histogram.entries()) {
    seen += count;
    if (seen < rank) continue;
    if (i === 0) return 0;
    if (i === ROLLUP_HISTOGRAM_SIZE - 1) return rollup.latency_max;
    const midpoint = 2 ** ((i - 0.5) / STEPS_PER_DOUBLING);
    return Math.round(Math.min(midpoint, rollup.latency_max));
  }
  // Counts summing to less than `total` mean a corrupt item; the maximum is the safest answer.
  return rollup.latency_max;
}

/** The histogram bucket of a latency, the first whose upper bound exceeds it (stored rollups add 1 to `h<index>`). */
export function histogramIndex(latency: number): number {
  let low = 0;
  let high = UPPER_BOUNDS_MS.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (latency < (UPPER_BOUNDS_MS[mid] ?? Number.POSITIVE_INFINITY)) high = mid;
    else low = mid + 1;
  }
  return low;
}

function assertHistogramLayout(rollup: Rollup): void {
  if (rollup.histogram.length !== ROLLUP_HISTOGRAM_SIZE) {
    throw new RangeError(
      `rollup histogram must have ${ROLLUP_HISTOGRAM_SIZE} buckets, got ${rollup.histogram.length}`,
    );
  }
}
