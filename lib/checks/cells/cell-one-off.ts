import { nextCellSlot } from '../../domain/schedules.ts';
import { type Clock, isoTime } from '../../platform/clock.ts';
import type { Table } from '../../store/table.ts';
import type { CellRecord } from './cell-items.ts';
import { type CellResultsRecord, getCellResults } from './cell-result-items.ts';

/** Milliseconds a one-off moves on at most when the ones before it are taken. */
const MAX_SHIFT = 16;

/**
 * The slot of a member's one-off probe (a new, enabled or re-targeted check, a manual run): its
 * own results item beside the cell's regular slots, which stay where they are. Never a regular
 * slot of the cell (that slot's job would find it stored and probe nobody else), and not one
 * another member's one-off of the same millisecond holds; the first slot holding this member is
 * its own (a redelivered job finds it and records nothing twice; `ran` is that slot's stored
 * results). Reads only for one-offs.
 */
export async function oneOffSlot(
  table: Table,
  cell: CellRecord,
  slotMs: number,
  checkId: string,
): Promise<{ slotMs: number; ran?: CellResultsRecord | undefined }> {
  let candidate = slotMs;
  for (let shift = 0; shift < MAX_SHIFT; shift += 1, candidate += 1) {
    if (nextCellSlot(cell, candidate) === candidate) continue;
    const stored = await getCellResults(table, cell.id, isoTime(candidate));
    if (!stored) return { slotMs: candidate };
    if (stored.results.some((entry) => entry.c === checkId)) return { slotMs: candidate, ran: stored };
  }
  return { slotMs: candidate };
}

/**
 * Whether a one-off job at `slotMs` comes after a regular slot of its cell came (a restart, a
 * queue's redelivery): probing then under its old slot would put a result older than moves
 * already made (stored, never applied). A late first probe is dropped (the regular slot probes
 * the check); a late manual run probes under a slot of now.
 */
const oneOffIsLate = (cell: CellRecord, slotMs: number, nowMs: number) =>
  nextCellSlot(cell, slotMs + 1) <= nowMs;

/**
 * The slot a one-off job probes under: its own (oneOffSlot), or, when it is late and not yet
 * probed (a delivery that stored it finds it and applies it), a slot of now for a manual run and
 * none (undefined: dropped) for a first probe.
 */
export async function oneOffRunSlot(
  deps: { table: Table; clock: Clock },
  cell: CellRecord,
  job: { slot_ms: number; check_id?: string | undefined; manual?: boolean | undefined },
): Promise<number | undefined> {
  const checkId = job.check_id ?? '';
  const own = await oneOffSlot(deps.table, cell, job.slot_ms, checkId);
  if (own.ran || !oneOffIsLate(cell, job.slot_ms, deps.clock.now())) return own.slotMs;
  if (!job.manual) return undefined;
  return (await oneOffSlot(deps.table, cell, deps.clock.now(), checkId)).slotMs;
}

/**
 * Whether `record` is a one-off slot (off the cell's regular slots) with no regular slot stored
 * after it: then only other members' one-offs moved the cell since, and its own members (each
 * keeps the slot that last moved it) are still behind it. Two first probes of checks created
 * together are stored in one order and may be applied in the other; this reads only then.
 */
export async function oneOffBeforeRegular(
  deps: { table: Table; clock: Clock },
  cell: CellRecord,
  record: { slot: string },
): Promise<boolean> {
  const slotMs = Date.parse(record.slot);
  if (nextCellSlot(cell, slotMs) === slotMs) return false;
  const regular = nextCellSlot(cell, slotMs + 1);
  return regular > deps.clock.now() || !(await getCellResults(deps.table, cell.id, isoTime(regular)));
}
