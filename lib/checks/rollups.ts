import { z } from 'zod';
import { histogramIndex } from '../domain/sparkline.ts';
import { isoTime } from '../platform/clock.ts';
import { stamp } from '../store/item-type.ts';
import type { UpdateOp } from '../store/table.ts';
import { checkKeys, checkTypes } from './check-keys.ts';

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
  /** Latency histogram counts by index (layout of lib/domain/sparkline.ts); absent indexes are 0. */
  counts: z.record(z.string(), count),
});
export type CurrentRollup = z.infer<typeof currentRollupSchema>;

export interface RolledResult {
  success: boolean;
  latency_ms: number;
  checkedAtMs: number;
}

/** What one result does to the rollups: the check's new current bucket, and/or an add to a stored bucket. */
export interface RollupChange {
  /** The check's `current_rollup` after the result (undefined: unchanged). */
  current?: CurrentRollup;
  /** An upsert of a stored bucket (the finished current bucket, or a late result's). */
  stored?: UpdateOp;
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

/**
 * Adds a bucket's counts to its stored item (created if missing: `add` on absent attributes), so
 * buckets written more than once (a late result after the bucket moved on) sum up instead of
 * overwriting one another.
 */
function storedBucketOp(checkId: string, bucket: CurrentRollup, retentionDays: number): UpdateOp {
  const add: Record<string, number> = {
    total: bucket.total,
    failures: bucket.failures,
    latency_sum: bucket.latency_sum,
  };
  for (const [i, n] of Object.entries(bucket.counts)) add[`h${i}`] = n;
  return {
    type: 'update',
    key: checkKeys.rollup(checkId, bucket.bucket_start),
    set: {
      ...stamp(checkTypes.rollup),
      check_id: checkId,
      bucket_start: bucket.bucket_start,
      ttl: Math.floor(Date.parse(bucket.bucket_start) / 1000) + retentionDays * 86_400,
    },
    add,
  };
}

/** How one result changes the rollups of its check (pure). */
export function rollResult(
  checkId: string,
  current: CurrentRollup | undefined,
  result: RolledResult,
  retentionDays: number,
): RollupChange {
  const own = bucketOf(result);
  if (!current) return { current: own };
  if (own.bucket_start === current.bucket_start) return { current: plus(current, result) };
  // ISO times of one format compare as text.
  if (own.bucket_start > current.bucket_start) {
    return { current: own, stored: storedBucketOp(checkId, current, retentionDays) };
  }
  return { stored: storedBucketOp(checkId, own, retentionDays) };
}
