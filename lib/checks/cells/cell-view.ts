import type { CheckRecord } from '../../check-types/check-record.ts';
import { nextCellSlot } from '../../domain/schedules.ts';
import type { Clock } from '../../platform/clock.ts';
import { isoTime } from '../../platform/clock.ts';
import { deterministicId } from '../../platform/ids.ts';
import type { Table } from '../../store/table.ts';
import type { ResultRecord } from '../items/result-items.ts';
import {
  type CellResultEntry,
  type CellResultsRecord,
  type CellStateRecord,
  cellResultsPage,
  getCellState,
} from './cell-result-items.ts';

/** A member's running state and failures: its entry in the cell's state (a member left out of it is up with no failures). */
export function memberRunning(state: CellStateRecord | undefined, checkId: string) {
  const member = state?.members[checkId];
  return { state: member?.state ?? 'up', consecutive_failures: member?.consecutive_failures ?? 0 };
}

/** The running state of each of these pull checks in cells, by id (each cell's state read once). */
export async function cellMemberStates(
  table: Table,
  members: readonly { id: string; cell_id: string }[],
): Promise<Map<string, ReturnType<typeof memberRunning>['state']>> {
  const cellIds = [...new Set(members.map((m) => m.cell_id))];
  const cells = new Map(
    await Promise.all(cellIds.map(async (id) => [id, await getCellState(table, id)] as const)),
  );
  return new Map(members.map((m) => [m.id, memberRunning(cells.get(m.cell_id), m.id).state]));
}

/**
 * A pull check in a cell as the API shows it: its running state from the cell's state item (a
 * member left out of it is up with no failures), its last result from the cell's newest slot that
 * holds it, and its next run from the cell's phase. Each cell is read once per call, however many
 * of its checks are shown.
 */
export function createCellView(deps: { table: Table; clock: Clock }) {
  /** The cell's state and its newest slots' results (up to a few, so a check that joined late is found). */
  const readCell = async (cellId: string) => {
    const [state, latest] = await Promise.all([
      getCellState(deps.table, cellId),
      cellResultsPage(deps.table, cellId, { limit: 3 }),
    ]);
    return { state, latest: latest.slots };
  };

  const lastResultAt = (slots: CellResultsRecord[], checkId: string): string | null => {
    for (const slot of slots) {
      const entry = slot.results.find((r) => r.c === checkId);
      if (entry) return isoTime(Date.parse(slot.slot) + entry.o);
    }
    return null;
  };

  const shown = (
    check: CheckRecord,
    read: { state: CellStateRecord | undefined; latest: CellResultsRecord[] },
  ): CheckRecord => {
    const cell = check.cell;
    if (!cell) return check;
    return {
      ...check,
      ...memberRunning(read.state, check.id),
      last_result_at: lastResultAt(read.latest, check.id) ?? check.last_result_at,
      next_run_at: isoTime(
        nextCellSlot({ id: cell.cell_id, interval_seconds: check.interval_seconds }, deps.clock.now()),
      ),
    };
  };

  return {
    async overlay(checks: readonly CheckRecord[]): Promise<CheckRecord[]> {
      const cellIds = [...new Set(checks.flatMap((c) => (c.cell ? [c.cell.cell_id] : [])))];
      const reads = new Map(await Promise.all(cellIds.map(async (id) => [id, await readCell(id)] as const)));
      return checks.map((check) => {
        const read = check.cell ? reads.get(check.cell.cell_id) : undefined;
        return read ? shown(check, read) : check;
      });
    },
  };
}

export type CellView = ReturnType<typeof createCellView>;

/** A member's result in a stored slot, as the results API shows results (its id fixed by check and slot). */
export function memberResult(slot: CellResultsRecord, checkId: string): ResultRecord | undefined {
  const entry = slot.results.find((r) => r.c === checkId);
  return entry ? entryResult(slot, entry) : undefined;
}

/** One entry of a stored slot as a result record (memberResult without the search). */
export function entryResult(slot: CellResultsRecord, entry: CellResultEntry): ResultRecord {
  const checkId = entry.c;
  const slotMs = Date.parse(slot.slot);
  return {
    id: deterministicId('res', slotMs, `${checkId}:${slotMs}:p`),
    check_id: checkId,
    status_code: entry.s,
    latency_ms: entry.l,
    success: entry.ok,
    ...(entry.g ? { degraded: true } : {}),
    error_message: entry.e ?? '',
    checked_at: isoTime(slotMs + entry.o),
    ...(entry.d ? { details: entry.d } : {}),
    ...(entry.m ? { manual: true } : {}),
  };
}
