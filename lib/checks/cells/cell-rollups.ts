import type { ResultSample, Rollup } from '../../domain/rollups.ts';
import {
  bucketRolledUpBy,
  bucketStartMs,
  cellRollsUp,
  memberRollupOf,
  ROLLUP_BUCKET_MS,
  rollUpMembers,
  storedMemberRollup,
} from '../../domain/rollups.ts';
import { isoTime } from '../../platform/clock.ts';
import { ConditionFailedError, type Table } from '../../store/table.ts';
import { type CellResultsRecord, cellResultsBetween } from './cell-result-items.ts';
import { cellRollupOp, cellRollupsBetween } from './cell-rollup-items.ts';

/**
 * 5-minute rollups of a cell's members (issue 26's layout): written by the cell runner once per
 * bucket, read by the sparklines of the cell's checks. The bucket in progress, and a finished one
 * whose rollup is not written yet (its next bucket's first slot has not run), are summed from their
 * slots' results when read: at most two buckets of slots.
 */

/** What is read or written of a cell here. */
export interface RolledCell {
  id: string;
  tenant_id: string;
  interval_seconds: number;
}

/** The slots a cell runs in `ms` milliseconds at most (both ends counted). */
const slotsIn = (ms: number, intervalSeconds: number) => Math.ceil(ms / (intervalSeconds * 1000)) + 1;

/** The cell's slots from `fromMs` to before `toMs`, at most `max` + 1 (so an overflow shows). */
function slotsBetween(
  table: Table,
  cellId: string,
  fromMs: number,
  toMs: number,
  options: { max: number; consistent?: boolean },
): Promise<CellResultsRecord[]> {
  return cellResultsBetween(table, cellId, { from: isoTime(fromMs), to: isoTime(toMs - 1), ...options });
}

/**
 * After a slot is stored: if it is the first slot of its bucket, writes the previous bucket's
 * rollup (put only if absent) from that bucket's slots. Other slots read and write nothing, so a
 * cell costs one query and one put per 5 minutes. Answers whether this call wrote the rollup.
 */
export async function rollUpFinishedBucket(
  table: Table,
  cell: RolledCell,
  slotMs: number,
  retentionDays: number,
): Promise<boolean> {
  const bucket = bucketRolledUpBy(slotMs, cell.interval_seconds);
  if (bucket === undefined) return false;
  const bucketEnd = bucket + ROLLUP_BUCKET_MS;
  // Consistent: a slot stored just before this one is counted, not left out of the bucket for good.
  const slots = await slotsBetween(table, cell.id, bucket, bucketEnd, {
    max: slotsIn(ROLLUP_BUCKET_MS, cell.interval_seconds),
    consistent: true,
  });
  // A cell with no slot in the bucket (new, or idle) stores nothing: the sparkline shows it empty.
  if (slots.length === 0) return false;
  const members = Object.fromEntries(
    [...rollUpMembers(slots)].map(([checkId, rollup]) => [checkId, storedMemberRollup(rollup)]),
  );
  try {
    // The tenant's result counters moved as each slot landed (cell-runner.ts), not here.
    await table.transact([
      cellRollupOp(
        { cell_id: cell.id, tenant_id: cell.tenant_id, bucket_start: isoTime(bucket), members },
        retentionDays,
      ),
    ]);
    return true;
  } catch (error) {
    // Written before (a redelivered slot, or another worker): the first writer's item stands.
    if (error instanceof ConditionFailedError) return false;
    throw error;
  }
}

/** A 5-minute bucket of one member. */
export interface MemberBucket {
  bucketStartMs: number;
  rollup: Rollup;
}

/** The member's buckets summed from slots, by the bucket of each slot (buckets in `keep` only). */
function bucketsOfSlots(
  slots: readonly CellResultsRecord[],
  checkId: string,
  keep: (bucketMs: number) => boolean,
) {
  const byBucket = new Map<number, CellResultsRecord[]>();
  for (const slot of slots) {
    const bucket = bucketStartMs(Date.parse(slot.slot));
    if (keep(bucket)) byBucket.set(bucket, [...(byBucket.get(bucket) ?? []), slot]);
  }
  return [...byBucket].flatMap(([bucket, bucketSlots]): MemberBucket[] => {
    const rollup = rollUpMembers(bucketSlots).get(checkId);
    return rollup ? [{ bucketStartMs: bucket, rollup }] : [];
  });
}

/**
 * A member's 5-minute buckets in [startMs, endMs) (both bucket boundaries; endMs ends the bucket in
 * progress): the cell's stored rollups, and the last two buckets from their slots where no rollup
 * is stored. A cell without rollups (an interval of a bucket or more) has at most one slot per
 * bucket, so its slots are read instead, as many as the rollups would be.
 */
export async function cellMemberBuckets(
  table: Table,
  member: { checkId: string; cellId: string; intervalSeconds: number },
  window: { startMs: number; endMs: number },
): Promise<MemberBucket[]> {
  const { checkId, cellId, intervalSeconds } = member;
  const { startMs, endMs } = window;
  if (!cellRollsUp(intervalSeconds)) {
    const slots = await slotsBetween(table, cellId, startMs, endMs, {
      max: slotsIn(endMs - startMs, intervalSeconds),
    });
    return bucketsOfSlots(slots, checkId, () => true);
  }
  const stored = await cellRollupsBetween(table, cellId, isoTime(startMs), isoTime(endMs - ROLLUP_BUCKET_MS));
  const buckets: MemberBucket[] = stored.flatMap((item) => {
    const rollup = item.members[checkId];
    return rollup ? [{ bucketStartMs: Date.parse(item.bucket_start), rollup: memberRollupOf(rollup) }] : [];
  });
  const rolled = new Set(stored.map((item) => Date.parse(item.bucket_start)));
  const missing = [endMs - 2 * ROLLUP_BUCKET_MS, endMs - ROLLUP_BUCKET_MS].filter(
    (bucket) => bucket >= startMs && !rolled.has(bucket),
  );
  const first = missing[0];
  if (first === undefined) return buckets;
  const slots = await slotsBetween(table, cellId, first, endMs, {
    max: slotsIn(endMs - first, intervalSeconds),
  });
  return [...buckets, ...bucketsOfSlots(slots, checkId, (bucket) => missing.includes(bucket))];
}

/**
 * A member's results in [startMs, endMs) as sparkline samples (checked at slot + offset), from at
 * most `maxSlots` of the cell's slots; undefined when the window holds more.
 */
export async function cellMemberSamples(
  table: Table,
  member: { checkId: string; cellId: string },
  window: { startMs: number; endMs: number; maxSlots: number },
): Promise<ResultSample[] | undefined> {
  const slots = await slotsBetween(table, member.cellId, window.startMs, window.endMs, {
    max: window.maxSlots,
  });
  if (slots.length > window.maxSlots) return undefined;
  return slots.flatMap((slot) => {
    const entry = slot.results.find((r) => r.c === member.checkId);
    return entry
      ? [{ checked_at_ms: Date.parse(slot.slot) + entry.o, success: entry.ok, latency_ms: entry.l }]
      : [];
  });
}
