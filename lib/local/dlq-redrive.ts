import type { Clock } from '../platform/clock.ts';
import { ConditionFailedError, type Table } from '../store/table.ts';
import { deadLetterDroppedOp, deadLetterRedrivenOps, listDeadLetters } from './job-queue-items.ts';

/**
 * `vigil dlq redrive <queue>` on the local store: each dead letter of the queue becomes a queued
 * job again (visible now, attempts from zero) in one transaction with the letter's delete, so a
 * run stopped half way leaves every job in exactly one of the two places. The runtime times stored
 * jobs when it starts: redriven jobs run at its next start.
 */

/** Dead letters one run moves at most. */
const MAX_LETTERS = 10_000;
const PAGE = 100;

/** Moves the local queue's dead letters back to it; answers how many moved. */
export async function redriveLocalDeadLetters(
  deps: { table: Table; clock: Clock },
  queue: string,
): Promise<{ moved: number }> {
  let moved = 0;
  while (moved < MAX_LETTERS) {
    const letters = await listDeadLetters(deps.table, queue, Math.min(PAGE, MAX_LETTERS - moved));
    if (letters.length === 0) break;
    for (const letter of letters) {
      try {
        await deps.table.transact(deadLetterRedrivenOps(queue, letter, deps.clock.now()));
      } catch (error) {
        if (!(error instanceof ConditionFailedError)) throw error;
        // The same job is queued already (enqueued again meanwhile): the letter alone goes.
        await deps.table.transact([deadLetterDroppedOp(queue, letter)]);
      }
      moved += 1;
    }
  }
  return { moved };
}
