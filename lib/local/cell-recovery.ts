import type { CellRunner } from '../checks/probing.ts';
import type { Clock } from '../platform/clock.ts';
import type { Logger } from '../platform/logger.ts';
import type { Table } from '../store/table.ts';
import { readQueuedJobs } from './job-queue-items.ts';
import { type LocalCellBody, localProbeBodySchema, PROBE_QUEUE } from './probe-queue.ts';

/**
 * A restart's catch-up on the cell slots a crash left half done. A cell job is acked only after
 * its slot's state moves are written, so a job still queued whose slot's results are stored is one
 * whose process died in between (kill -9, a power cut): its results are applied now, oldest slot
 * first, before the scheduler reloads its queue (which drops past slots) and before any later slot
 * of the cell runs (a slot older than one that moved the cell's state is not applied). Applying is
 * idempotent (each member keeps the slot that last moved it), so a crash during the catch-up only
 * repeats it at the next start. Answers how many slots had results and how many transitions they made.
 */
export async function reapplyQueuedCellSlots(deps: {
  table: Table;
  cells: Pick<CellRunner, 'reapply'>;
  clock: Clock;
  logger: Logger;
}): Promise<{ slots: number; transitions: number }> {
  const nowMs = deps.clock.now();
  const queued = await readQueuedJobs(deps.table, PROBE_QUEUE, localProbeBodySchema);
  // Only a slot that has come may have run; a queued later one has stored nothing yet.
  const started = queued
    .flatMap((job) =>
      job.readable && job.body.kind === 'cell' && job.body.slot_ms <= nowMs
        ? [job.body as LocalCellBody]
        : [],
    )
    .sort((a, b) => a.slot_ms - b.slot_ms);
  let slots = 0;
  let transitions = 0;
  for (const { next_ms: _next, ...job } of started) {
    try {
      const applied = await deps.cells.reapply(job);
      if (applied.stored) slots += 1;
      transitions += applied.transitions.length;
    } catch (err) {
      // One cell's failure must not keep the others, or the server, from starting.
      deps.logger.error('cell slot not re-applied at start', {
        cell_id: job.cell_id,
        slot_ms: job.slot_ms,
        err,
      });
    }
  }
  if (transitions > 0) deps.logger.info('cell slots re-applied at start', { slots, transitions });
  return { slots, transitions };
}
