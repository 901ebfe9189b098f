import * as z from 'zod';
import { isoTime } from '../formats/iso-time.ts';
import { histogramIndex } from './sparkline.ts';

/**
 * 5-minute rollups of a check's results (sparklines without reading raw results). The bucket a
 * check is in now lives on the check's state item (`current_rollup`), written by the update every
 * result makes to it anyway; when a result falls in a later bucket, the finished one moves to its
 * own `ROLLUP#<bucket_start>` item in that result's transaction. So a result writes three items
 * (result, check state, queue job) instead of four, and at most one rollup item per check and
 * 5 minutes. A late result for an earlier bucket adds to that bucket's item directly.
 */

export const ROLLUP_BUCKET_MS = 5 * 60_000;

const count = z.number().int().min(0);

/** The check's current bucket: counts and latency sum, and the latency histogram as index -> count. */
export const currentRollupSchema = z.object({
  bucket_start: z.string(),
  total: count,
  failures: count,
  latency_sum: z.number().min(0),
  /** Latency histogram counts by index (layout of lib/domain/rollups/sparkline.ts); absent indexes are 0. */
  counts: z.record(z.string(), count),
});
export type CurrentRollup = z.infer<typeof currentRollupSchema>;

export interface RolledResult {
  success: boolean;
  latency_ms: number;
  checkedAtMs: number;
}

/** What one result does to the rollups: the check's new current bucket, and/or counts to add to a stored bucket. */
export interface RollupChange {
  /** The check's `current_rollup` after the result (undefined: unchanged). */
  current?: CurrentRollup;
  /** Counts to add to a stored bucket's item (the finished current bucket, or a late result's own). */
  stored?: CurrentRollup;
}

/** The start of the 5-minute bucket holding `ms`. */
export function bucketStartMs(ms: number): number {
  return Math.floor(ms / ROLLUP_BUCKET_MS) * ROLLUP_BUCKET_MS;
}

function bucketOf(result: RolledResult): CurrentRollup {
  return {
    bucket_start: isoTime(bucketStartMs(result.checkedAtMs)),
    total: 1,
    failures: result.success ? 0 : 1,
    latency_sum: result.latency_ms,
    counts: { [histogramIndex(result.latency_ms)]: 1 },
  };
}

function plus(bucket: CurrentRollup, result: RolledResult): CurrentRollup {
  const i = String(histogramIndex(result.latency_ms));
  return {
    bucket_start: bucket.bucket_start,
    total: bucket.total + 1,
    failures: bucket.failures + (result.success ? 0 : 1),
    latency_sum: bucket.latency_sum + result.latency_ms,
    counts: { ...bucket.counts, [i]: (bucket.counts[i] ?? 0) + 1 },
  };
}

/** How one result changes the rollups of its check (pure). */
export function rollResult(current: CurrentRollup | undefined, result: RolledResult): RollupChange {
  const own = bucketOf(result);
  if (!current) return { current: own };
  if (own.bucket_start === current.bucket_start) return { current: plus(current, result) };
  // ISO times of one format compare as text.
  if (own.bucket_start > current.bucket_start) {
    return { current: own, stored: current };
  }
  return { stored: own };
}
