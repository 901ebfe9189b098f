import {
  bucketStartMs,
  type CurrentRollup,
  cellRollsUp,
  DAY_MS,
  dateStartMs,
  dayStartMs,
  memberRollupOf,
  mergeRollups,
  ROLLUP_BUCKET_MS,
  ROLLUP_HISTOGRAM_SIZE,
  type Rollup,
  rollUpMembers,
  storedMemberRollup,
  utcDate,
} from '../../domain/rollups.ts';
import { isoTime } from '../../platform/clock.ts';
import { ConditionFailedError, type Table, type WriteOp } from '../../store/table.ts';
import { cellResultsBetween } from '../cells/cell-result-items.ts';
import { cellRollupsBetween } from '../cells/cell-rollup-items.ts';
import { cellMemberBuckets, type MemberBucket } from '../cells/cell-rollups.ts';
import { cellDayOp, cellDaysBetween, checkDayOp, checkDaysBetween } from '../items/day-rollup-items.ts';
import { rollupsBetween } from '../items/rollup-items.ts';
import { estimateMaxLatency } from './sparkline-reads.ts';

/**
 * Daily rollups (lib/checks/items/day-rollup-items.ts): closed once per check or cell and UTC day, from
 * that day's 5-minute rollups, by the writer that finishes the day's last bucket (the recorder, on
 * a check's first result of a later day; the cell runner, on a cell's first slot of a day). Reads
 * use a day's item when it is written and otherwise fold that day's 5-minute rollups (today, a
 * day whose close was lost, and history older than the daily items), so a read is always right
 * and costs at most 288 items for each day without one.
 */

/** Puts an item only if absent; a writer that loses leaves the first one's item. */
async function putOnce(table: Table, op: WriteOp): Promise<void> {
  try {
    await table.transact([op]);
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
  }
}

/** A stored bucket as a Rollup (histogram as an array). */
function storedRollup(b: {
  total: number;
  failures: number;
  latency_sum: number;
  histogram: number[];
}): Rollup {
  return {
    total: b.total,
    failures: b.failures,
    latency_sum: b.latency_sum,
    latency_max: estimateMaxLatency(b.histogram, b.total, b.latency_sum),
    histogram: b.histogram,
  };
}

function currentRollupOf(current: CurrentRollup): Rollup {
  const histogram = Array.from({ length: ROLLUP_HISTOGRAM_SIZE }, (_, i) => current.counts[i] ?? 0);
  return storedRollup({ ...current, histogram });
}

/**
 * Closes a check's day (YYYY-MM-DD) once its last bucket is stored: sums its 5-minute rollups
 * (consistent: the bucket moved by the transaction just committed counts) into its `day_rollup`.
 */
export async function closeCheckDay(table: Table, checkId: string, date: string, retentionDays: number) {
  const start = dateStartMs(date);
  const buckets = await rollupsBetween(
    table,
    checkId,
    isoTime(start),
    isoTime(start + DAY_MS - ROLLUP_BUCKET_MS),
  );
  if (buckets.length === 0) return;
  const rollup = storedMemberRollup(mergeRollups(buckets.map(storedRollup)));
  await putOnce(table, checkDayOp({ check_id: checkId, date, rollup }, retentionDays));
}

/** The day a bucket moved by a result closes: the stored bucket's day when the current one is in a later day. */
export function dayClosedBy(change: { current?: CurrentRollup; stored?: CurrentRollup }): string | undefined {
  if (!change.current || !change.stored) return undefined;
  const stored = utcDate(Date.parse(change.stored.bucket_start));
  return utcDate(Date.parse(change.current.bucket_start)) > stored ? stored : undefined;
}

/**
 * After a cell's slot is stored (and its finished bucket rolled up): on the cell's first slot of a
 * UTC day, writes the previous day's `cell_day_rollup` from that day's rollups, or from its slots
 * for cells without rollups (a 5-minute or longer interval: at most 288 slots).
 */
export async function closeCellDay(
  table: Table,
  cell: { id: string; tenant_id: string; interval_seconds: number },
  slotMs: number,
  retentionDays: number,
): Promise<boolean> {
  const today = dayStartMs(slotMs);
  if (dayStartMs(slotMs - cell.interval_seconds * 1000) >= today) return false;
  const start = today - DAY_MS;
  let members: Map<string, Rollup>;
  if (cellRollsUp(cell.interval_seconds)) {
    // The day's last bucket was rolled up by this very slot (rollUpFinishedBucket), just before.
    const stored = await cellRollupsBetween(
      table,
      cell.id,
      isoTime(start),
      isoTime(today - ROLLUP_BUCKET_MS),
    );
    members = new Map();
    for (const item of stored) {
      for (const [checkId, m] of Object.entries(item.members)) {
        members.set(
          checkId,
          mergeRollups([members.get(checkId), memberRollupOf(m)].filter((r) => r !== undefined)),
        );
      }
    }
  } else {
    const slots = await cellResultsBetween(table, cell.id, {
      from: isoTime(start),
      to: isoTime(today - 1),
      max: Math.ceil(DAY_MS / (cell.interval_seconds * 1000)) + 1,
      consistent: true,
    });
    members = rollUpMembers(slots);
  }
  if (members.size === 0) return false;
  const record = {
    cell_id: cell.id,
    tenant_id: cell.tenant_id,
    date: utcDate(start),
    members: Object.fromEntries([...members].map(([id, r]) => [id, storedMemberRollup(r)])),
  };
  await putOnce(table, cellDayOp(record, retentionDays));
  return true;
}

/** What a read of a check's days needs of the check (its id, creation, current bucket and cells). */
export interface DailyCheck {
  id: string;
  created_at: string;
  current_rollup?: CurrentRollup | undefined;
  cell?: { cell_id: string } | null | undefined;
  interval_seconds?: number;
  former_cells?: readonly { cell_id: string; interval_seconds: number }[] | undefined;
}

/** The cells holding the check's results: its cell and those it left, each once. */
function cellsOf(check: DailyCheck): { cellId: string; intervalSeconds: number }[] {
  const cells = new Map<string, number>();
  if (check.cell && check.interval_seconds !== undefined)
    cells.set(check.cell.cell_id, check.interval_seconds);
  for (const f of check.former_cells ?? [])
    if (!cells.has(f.cell_id)) cells.set(f.cell_id, f.interval_seconds);
  return [...cells].map(([cellId, intervalSeconds]) => ({ cellId, intervalSeconds }));
}

/**
 * The check's 5-minute buckets starting in [startMs, endMs): its own rollups and current bucket,
 * and its buckets in the cells it is or was in.
 */
export async function checkBuckets(
  table: Table,
  check: DailyCheck,
  startMs: number,
  endMs: number,
): Promise<MemberBucket[]> {
  const [own, ...cells] = await Promise.all([
    rollupsBetween(table, check.id, isoTime(startMs), isoTime(endMs - ROLLUP_BUCKET_MS)),
    ...cellsOf(check).map((c) => cellMemberBuckets(table, { checkId: check.id, ...c }, { startMs, endMs })),
  ]);
  const buckets: MemberBucket[] = own.map((b) => ({
    bucketStartMs: Date.parse(b.bucket_start),
    rollup: storedRollup(b),
  }));
  const current = check.current_rollup;
  const currentMs = current ? Date.parse(current.bucket_start) : Number.NaN;
  if (current && currentMs >= startMs && currentMs < endMs) {
    buckets.push({ bucketStartMs: currentMs, rollup: currentRollupOf(current) });
  }
  return [...buckets, ...cells.flat()].filter((b) => b.bucketStartMs >= startMs && b.bucketStartMs < endMs);
}

/** Runs of consecutive dates (each run: its first and last date). */
function runsOf(dates: readonly string[]): [string, string][] {
  const runs: [string, string][] = [];
  for (const date of dates) {
    const last = runs.at(-1);
    if (last && dateStartMs(date) - dateStartMs(last[1]) === DAY_MS) last[1] = date;
    else runs.push([date, date]);
  }
  return runs;
}

/**
 * The check's rollup of each UTC day in `dates` (consecutive, oldest first; none after `nowMs`'s
 * day): closed days from their daily items, the others folded from their 5-minute buckets up to
 * the end of `nowMs`'s bucket. Days before the check was created and days without results are absent.
 */
export async function checkDailyRollups(
  table: Table,
  check: DailyCheck,
  dates: readonly string[],
  nowMs: number,
): Promise<Map<string, Rollup>> {
  const createdDay = utcDate(Date.parse(check.created_at));
  const wanted = dates.filter((d) => d >= createdDay);
  const first = wanted[0];
  const last = wanted.at(-1);
  const out = new Map<string, Rollup[]>();
  const put = (date: string, rollup: Rollup) => out.set(date, [...(out.get(date) ?? []), rollup]);
  if (first === undefined || last === undefined) return new Map();
  const cells = cellsOf(check);
  const [ownDays, ...cellDays] = await Promise.all([
    checkDaysBetween(table, check.id, first, last),
    ...cells.map((c) => cellDaysBetween(table, c.cellId, first, last)),
  ]);
  // A day counts as closed only when every place the check's results may be in has closed it.
  const closedIn = (days: readonly { date: string }[]) => new Set(days.map((d) => d.date));
  const ownClosed = closedIn(ownDays);
  const cellClosed = cellDays.map(closedIn);
  const open = wanted.filter((d) => !(ownClosed.has(d) || cellClosed.some((closed) => closed.has(d))));
  for (const d of ownDays) if (!open.includes(d.date)) put(d.date, memberRollupOf(d.rollup));
  cellDays.forEach((days) => {
    for (const d of days) {
      const member = d.members[check.id];
      if (member && !open.includes(d.date)) put(d.date, memberRollupOf(member));
    }
  });
  // A fold ends with the bucket in progress, not with its day: a cell reads its newest buckets,
  // not yet rolled up, from its slots, and takes the last two of the window for them (reading to
  // the day's end left today's bucket in progress out, so "Last 7 days" counted fewer than "Last 24 h").
  const nowEnd = bucketStartMs(nowMs) + ROLLUP_BUCKET_MS;
  const folded = await Promise.all(
    runsOf(open).map(([from, to]) =>
      checkBuckets(table, check, dateStartMs(from), Math.min(dateStartMs(to) + DAY_MS, nowEnd)),
    ),
  );
  for (const bucket of folded.flat()) put(utcDate(bucket.bucketStartMs), bucket.rollup);
  return new Map([...out].map(([date, rollups]) => [date, mergeRollups(rollups)]));
}
