import { bucketStartMs, ROLLUP_BUCKET_MS } from './rollup-bucket.ts';
import { addToRollup, emptyRollup, ROLLUP_HISTOGRAM_SIZE, type Rollup } from './sparkline.ts';

/**
 * 5-minute rollups of a cell's members (pure). A cell stores one results item per slot for all its
 * members, so instead of a per-check current bucket it rolls up a whole finished bucket at once:
 * the first slot of a bucket sums the previous bucket's slots per member. Cells whose interval is
 * a bucket or longer hold at most one slot per bucket: their results items are already as few as
 * rollups would be, so they get none and sparklines read the results.
 */

/** One member's bucket as stored: the Rollup of lib/domain/rollups/sparkline.ts with a sparse histogram. */
export interface StoredMemberRollup {
  total: number;
  failures: number;
  latency_sum: number;
  latency_max: number;
  /** Latency histogram counts by index (layout of lib/domain/rollups/sparkline.ts); absent indexes are 0. */
  histogram: Record<string, number>;
}

/** What a rollup needs of a member's entry in a slot (lib/checks/cells/cell-result-items.ts). */
export interface RolledEntry {
  c: string;
  ok: boolean;
  l: number;
}

/** Whether a cell of this interval keeps rollups (shorter than a bucket: several slots per bucket). */
export function cellRollsUp(intervalSeconds: number): boolean {
  return intervalSeconds * 1000 < ROLLUP_BUCKET_MS;
}

/**
 * The finished bucket a slot rolls up (its start, ms), or undefined: only the first slot of a
 * bucket does (the slot before it falls in an earlier bucket), so a cell writes at most one rollup
 * per 5 minutes, and a slot knows it without reading anything.
 */
export function bucketRolledUpBy(slotMs: number, intervalSeconds: number): number | undefined {
  if (!cellRollsUp(intervalSeconds)) return undefined;
  const bucket = bucketStartMs(slotMs);
  return bucketStartMs(slotMs - intervalSeconds * 1000) < bucket ? bucket - ROLLUP_BUCKET_MS : undefined;
}

/** Each member's Rollup over the given slots' entries (members without an entry are left out). */
export function rollUpMembers(slots: readonly { results: readonly RolledEntry[] }[]): Map<string, Rollup> {
  const members = new Map<string, Rollup>();
  for (const slot of slots) {
    for (const entry of slot.results) {
      const before = members.get(entry.c) ?? emptyRollup();
      members.set(entry.c, addToRollup(before, { success: entry.ok, latency_ms: entry.l }));
    }
  }
  return members;
}

/** A Rollup as stored (sparse histogram). */
export function storedMemberRollup(rollup: Rollup): StoredMemberRollup {
  const histogram: Record<string, number> = {};
  rollup.histogram.forEach((count, i) => {
    if (count > 0) histogram[String(i)] = count;
  });
  return {
    total: rollup.total,
    failures: rollup.failures,
    latency_sum: rollup.latency_sum,
    latency_max: rollup.latency_max,
    histogram,
  };
}

/** A stored member's bucket as a Rollup (full histogram). */
export function memberRollupOf(stored: StoredMemberRollup): Rollup {
  return {
    total: stored.total,
    failures: stored.failures,
    latency_sum: stored.latency_sum,
    latency_max: stored.latency_max,
    histogram: Array.from({ length: ROLLUP_HISTOGRAM_SIZE }, (_, i) => stored.histogram[String(i)] ?? 0),
  };
}
