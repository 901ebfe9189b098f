import * as z from 'zod';
import {
  bucketize,
  bucketStartMs,
  type CurrentRollup,
  mergeRollups,
  p50FromRollup,
  ROLLUP_BUCKET_MS,
  ROLLUP_HISTOGRAM_SIZE,
  type Rollup,
  SPARKLINE_MAX_BUCKETS,
  SPARKLINE_MAX_HOURS,
  type SparklineBucket,
} from '../../domain/rollups.ts';
import { queryInteger } from '../../http/route-schemas.ts';
import { isoTime } from '../../platform/clock.ts';
import { ValidationError } from '../../platform/errors.ts';
import type { Table } from '../../store/table.ts';
import { cellMemberBuckets, cellMemberSamples } from '../cells/cell-rollups.ts';
import { resultsBetween } from '../items/result-items.ts';
import { rollupsBetween } from '../items/rollup-items.ts';

/**
 * Sparklines of one check. The window ends at the end of the current 5-minute rollup bucket, so
 * it starts on a bucket boundary too. When each sparkline bucket spans whole rollup buckets the
 * answer comes from the rollup items (at most 12 per hour of window, however often the check
 * runs); only other bucket widths read the raw results of the window, and at most
 * RAW_SPARKLINE_MAX_RESULTS of them. A pull check in a cell reads its cell's rollups or slots
 * (lib/checks/cells/cell-rollups.ts), and those of the cells it left (its `former_cells`), and, as a check
 * moved into a cell keeps the per-check items it had before (until they expire), its own ones too:
 * all count, so its history is not cut.
 */

const HOUR_MS = 3_600_000;
/** Raw results one sparkline may read (unaligned bucket widths only); more is a 400. */
export const RAW_SPARKLINE_MAX_RESULTS = 20_000;
/**
 * Slots of a cell one sparkline may read (a cell member, unaligned widths only); more is a 400.
 * Each holds every member's result (up to 100), so fewer than results: a day of 1-minute slots.
 */
export const RAW_SPARKLINE_MAX_CELL_SLOTS = 2_000;

/** Query of GET /v1/checks/{id}/sparkline: hours (default 24, at most 720), buckets (default 48, at most 500). */
export const sparklineQuery = z.object({
  hours: queryInteger(1, SPARKLINE_MAX_HOURS)
    .default(24)
    .meta({ description: `The window: an integer from 1 to ${SPARKLINE_MAX_HOURS} hours; default 24` }),
  buckets: queryInteger(1, SPARKLINE_MAX_BUCKETS)
    .default(48)
    .meta({
      description: `Buckets in the window: an integer from 1 to ${SPARKLINE_MAX_BUCKETS}; default 48`,
    }),
});

/**
 * An estimate of the largest latency in a histogram (layout of lib/domain/rollups/sparkline.ts: index 0 is
 * [0, 1) ms, index i is [2^((i-1)/4), 2^(i/4)) ms, the last is 2^17 ms and up): the geometric
 * midpoint of the highest non-empty bucket, never below the mean. Stored rollups keep no maximum
 * (they are built with atomic adds), so this is within ~9% like the p50 estimate.
 */
export function estimateMaxLatency(histogram: readonly number[], total: number, latencySum: number): number {
  const mean = total > 0 ? latencySum / total : 0;
  let top = -1;
  histogram.forEach((count, i) => {
    if (count > 0) top = i;
  });
  if (top <= 0) return mean;
  const estimate = top === ROLLUP_HISTOGRAM_SIZE - 1 ? 2 ** 17 : 2 ** ((top - 0.5) / 4);
  return Math.max(estimate, mean);
}

interface StoredBucket {
  bucket_start: string;
  total: number;
  failures: number;
  latency_sum: number;
}

function rollupOf(bucket: StoredBucket, histogram: number[]): { bucketStartMs: number; rollup: Rollup } {
  return {
    bucketStartMs: Date.parse(bucket.bucket_start),
    rollup: {
      total: bucket.total,
      failures: bucket.failures,
      latency_sum: bucket.latency_sum,
      latency_max: estimateMaxLatency(histogram, bucket.total, bucket.latency_sum),
      histogram,
    },
  };
}

/** The check's current bucket (histogram counts by index). */
function rollupFromCurrent(current: CurrentRollup): { bucketStartMs: number; rollup: Rollup } {
  const histogram = Array.from({ length: ROLLUP_HISTOGRAM_SIZE }, (_, i) => current.counts[i] ?? 0);
  return rollupOf(current, histogram);
}

interface Window {
  startMs: number;
  endMs: number;
  hours: number;
  buckets: number;
}

/**
 * The check a sparkline is read for: its id and its current bucket (kept on its state item); for
 * a pull check in a cell, the cell and the interval it runs at; and the cells it left.
 */
export interface SparklineCheck {
  id: string;
  current_rollup?: CurrentRollup | undefined;
  cell?: { cell_id: string } | null | undefined;
  interval_seconds?: number;
  former_cells?: readonly { cell_id: string; interval_seconds: number; until: string }[] | undefined;
}

/** A cell the check's results are in, and the end of the part of the window it can hold them in. */
interface Membership {
  checkId: string;
  cellId: string;
  intervalSeconds: number;
  endMs: number;
}

/**
 * The cells holding the check's results in the window: its cell, then the cells it left, each read
 * up to the end of the rollup bucket it left in, and each once (a check back in a cell it left
 * reads it whole: a cell's rollups cannot be split within a bucket, and hold only its members).
 */
function membershipsOf(check: SparklineCheck, w: Window): Membership[] {
  const byCell = new Map<string, Membership>();
  const add = (cellId: string, intervalSeconds: number, endMs: number) => {
    const known = byCell.get(cellId);
    if (endMs > w.startMs && (!known || known.endMs < endMs)) {
      byCell.set(cellId, { checkId: check.id, cellId, intervalSeconds, endMs });
    }
  };
  if (check.cell && check.interval_seconds !== undefined) {
    add(check.cell.cell_id, check.interval_seconds, w.endMs);
  }
  for (const former of check.former_cells ?? []) {
    const leftBucketEnd = bucketStartMs(Date.parse(former.until)) + ROLLUP_BUCKET_MS;
    add(former.cell_id, former.interval_seconds, Math.min(w.endMs, leftBucketEnd));
  }
  return [...byCell.values()];
}

function tooManyResults(): never {
  throw ValidationError.field(
    'buckets',
    'too many results for this bucket width; choose buckets so that each spans a multiple of 5 minutes',
  );
}

async function fromRollups(table: Table, check: SparklineCheck, w: Window): Promise<SparklineBucket[]> {
  const checkId = check.id;
  const width = (w.endMs - w.startMs) / w.buckets;
  const [stored, ...cellBuckets] = await Promise.all([
    rollupsBetween(table, checkId, isoTime(w.startMs), isoTime(w.endMs - ROLLUP_BUCKET_MS)),
    ...membershipsOf(check, w).map((member) =>
      cellMemberBuckets(table, member, { startMs: w.startMs, endMs: member.endMs }),
    ),
  ]);
  const perBucket: Rollup[][] = Array.from({ length: w.buckets }, () => []);
  const add = ({ bucketStartMs, rollup }: { bucketStartMs: number; rollup: Rollup }) => {
    if (bucketStartMs < w.startMs || bucketStartMs >= w.endMs) return;
    perBucket[Math.floor((bucketStartMs - w.startMs) / width)]?.push(rollup);
  };
  for (const bucket of stored) add(rollupOf(bucket, bucket.histogram));
  // A stored item of the same bucket as the current one can exist (a late result); both count.
  if (check.current_rollup) add(rollupFromCurrent(check.current_rollup));
  // A cell's buckets: their results are not among the per-check ones (a check is in one layout at a time).
  for (const bucket of cellBuckets.flat()) add(bucket);
  return perBucket.map((rollups, i) => {
    const merged = mergeRollups(rollups);
    return {
      start: isoTime(w.startMs + i * width),
      total: merged.total,
      failures: merged.failures,
      p50_latency_ms: p50FromRollup(merged),
      max_latency_ms: merged.total > 0 ? Math.round(merged.latency_max) : null,
    };
  });
}

async function fromResults(table: Table, check: SparklineCheck, w: Window): Promise<SparklineBucket[]> {
  const [results, ...cellSamples] = await Promise.all([
    resultsBetween(table, check.id, {
      from: isoTime(w.startMs),
      to: isoTime(w.endMs),
      max: RAW_SPARKLINE_MAX_RESULTS,
    }),
    ...membershipsOf(check, w).map((member) =>
      cellMemberSamples(table, member, {
        startMs: w.startMs,
        endMs: member.endMs,
        maxSlots: RAW_SPARKLINE_MAX_CELL_SLOTS,
      }),
    ),
  ]);
  if (results.length > RAW_SPARKLINE_MAX_RESULTS) tooManyResults();
  const fromCells = cellSamples.flatMap((samples) => samples ?? tooManyResults());
  // An inconclusive slot is neither up nor down (nor a latency): it is no sample, as in the rollups.
  const samples = results
    .filter((result) => !result.inconclusive)
    .map((result) => ({
      checked_at_ms: Date.parse(result.checked_at),
      success: result.success,
      latency_ms: result.latency_ms,
    }));
  return bucketize([...samples, ...fromCells], { endMs: w.endMs, hours: w.hours, buckets: w.buckets });
}

/** The sparkline of a check over the `hours` before now: the window and `buckets` equal buckets, oldest first. */
export async function readSparkline(
  table: Table,
  check: SparklineCheck,
  options: { hours: number; buckets: number; nowMs: number },
): Promise<{ start: string; end: string; buckets: SparklineBucket[] }> {
  const endMs = bucketStartMs(options.nowMs) + ROLLUP_BUCKET_MS;
  const span = options.hours * HOUR_MS;
  const window = { startMs: endMs - span, endMs, hours: options.hours, buckets: options.buckets };
  const aligned = span % options.buckets === 0 && (span / options.buckets) % ROLLUP_BUCKET_MS === 0;
  const buckets = aligned ? await fromRollups(table, check, window) : await fromResults(table, check, window);
  return { start: isoTime(window.startMs), end: isoTime(endMs), buckets };
}
