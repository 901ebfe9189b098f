import { cellSlotsBetween } from '../../domain/schedules.ts';
import { isoTime } from '../../platform/clock.ts';
import { ConditionFailedError, type Table } from '../../store/table.ts';
import { cellsOfShard, leaseAdvancedOp, readLease } from '../cells/cell-items.ts';
import type { CellJob } from './cell-runner.ts';

/** A cell's slot to send, due at `dueMs` (runtimes delay it until then). */
export interface DueCellSlot {
  job: CellJob;
  dueMs: number;
  /** The cell's next slot after this one (the local queue drops a slot superseded by it). */
  nextMs: number;
}

export interface CellShardRun {
  cells: number;
  /** Slots the queue took. */
  sent: number;
  /** False when the queue refused some: the lease stays, and the next run sends the window again. */
  leased: boolean;
}

/**
 * One generator run over a due shard's cells: reads the shard's cells and its lease (the end of
 * the window already sent), sends one job per cell and slot after it up to `windowEndMs`, and only
 * then moves the lease on. A run that fails before that is repeated whole by the next one (the
 * worker stores a slot once, so a second message for it is harmless); two runs of one window send
 * twice and one of them moves the lease. No write per check: one per shard and run.
 */
export async function generateCellShard(
  shard: number,
  windowEndMs: number,
  deps: {
    table: Table;
    nowMs: number;
    /** Sends the jobs; answers how many the queue did not take. */
    dispatch(slots: DueCellSlot[]): Promise<number>;
  },
): Promise<CellShardRun> {
  const [sentThrough, cells] = await Promise.all([
    readLease(deps.table, shard),
    cellsOfShard(deps.table, shard),
  ]);
  // Without a lease (the shard's first run), slots from now on; never a burst of past ones.
  const afterMs = sentThrough === undefined ? deps.nowMs - 1 : Date.parse(sentThrough);
  if (afterMs >= windowEndMs) return { cells: cells.length, sent: 0, leased: true };
  // A cell whose last member left stays for the next check of its tenant and interval; it runs nothing.
  const slots = cells
    .filter((cell) => Object.keys(cell.members).length > 0)
    .flatMap((cell) =>
      cellSlotsBetween(cell, afterMs, windowEndMs).map((slotMs) => ({
        job: { kind: 'cell' as const, tenant_id: cell.tenant_id, cell_id: cell.id, shard, slot_ms: slotMs },
        dueMs: slotMs,
        nextMs: slotMs + cell.interval_seconds * 1000,
      })),
    );
  const unsent = slots.length > 0 ? await deps.dispatch(slots) : 0;
  if (unsent > 0) return { cells: cells.length, sent: slots.length - unsent, leased: false };
  try {
    await deps.table.transact([leaseAdvancedOp(shard, sentThrough, isoTime(windowEndMs))]);
  } catch (error) {
    // Another run of this window moved it first: its messages and ours are the same slots.
    if (!(error instanceof ConditionFailedError)) throw error;
  }
  return { cells: cells.length, sent: slots.length, leased: true };
}
