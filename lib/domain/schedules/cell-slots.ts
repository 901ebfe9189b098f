import { firstSlot } from './schedule.ts';

/**
 * Slot arithmetic of a cell (pure): the pull checks of one tenant and interval share a cell, and a
 * cell runs them together on its own phase (stable per cell id, uniform over the interval, like a
 * check's: lib/domain/schedules/schedule.ts), so one message and one results item serve every member.
 */

/** Checks per cell at most: a slot's results item stays far below DynamoDB's 400 KB. */
export const CELL_SIZE = 100;

/** What a cell's slots depend on. */
export interface CellSchedule {
  id: string;
  interval_seconds: number;
}

/** The first slot of the cell at or after `nowMs`. */
export function nextCellSlot(cell: CellSchedule, nowMs: number): number {
  return firstSlot(cell.id, cell.interval_seconds, nowMs);
}

/**
 * The cell's slots after `afterMs` and at or before `untilMs`, oldest first: what a generator run
 * sends when the shard's lease says slots up to `afterMs` are sent. At most `max` (a run after a
 * long outage sends the latest ones, not a burst of the missed ones).
 */
export function cellSlotsBetween(cell: CellSchedule, afterMs: number, untilMs: number, max = 60): number[] {
  const interval = cell.interval_seconds * 1000;
  const slots: number[] = [];
  for (let slot = nextCellSlot(cell, afterMs + 1); slot <= untilMs; slot += interval) slots.push(slot);
  return slots.slice(-max);
}
