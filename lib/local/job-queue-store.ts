import type { z } from 'zod';
import { chunks } from '../platform/chunks.ts';
import type { Clock } from '../platform/clock.ts';
import { ConditionFailedError, MAX_TRANSACTION_OPS, type Table, type WriteOp } from '../store/table.ts';
import { deadLetterOps, jobAckedOp, readQueuedJobs } from './job-queue-items.ts';

/**
 * The table writes of the local job queue (lib/local/sqlite-job-queue.ts) that need none of its
 * in-memory state, over the queue's items (job-queue-items.ts): conditional puts of new jobs, the
 * load of stored jobs at start, and deletes in chunks.
 */

/** Commits the puts of new jobs (each `itemNotExists`) in chunks; returns the ids whose put committed. */
export async function putNewJobs(
  table: Table,
  entries: { job: { id: string }; op: WriteOp }[],
): Promise<Set<string>> {
  const stored = new Set<string>();
  for (let chunk of chunks(entries, MAX_TRANSACTION_OPS)) {
    while (chunk.length > 0) {
      try {
        await table.transact(chunk.map(({ op }) => op));
        for (const { job } of chunk) stored.add(job.id);
        break;
      } catch (err) {
        if (!(err instanceof ConditionFailedError) || err.failed.length === 0) throw err;
        // Those ids are queued already: enqueueing them again adds nothing.
        const duplicate = new Set(err.failed);
        chunk = chunk.filter((_, i) => !duplicate.has(i));
      }
    }
  }
  return stored;
}

/**
 * Reads a queue's stored jobs in key order, handing each readable one to `onJob` with its attempt
 * count and stored visible time; one that does not parse becomes a dead letter. Returns how many did.
 */
export async function readStoredJobs<B>(
  deps: { table: Table; name: string; schema: z.ZodType<B>; clock: Clock },
  onJob: (job: { id: string; body: B; attempt: number }, visibleMs: number) => void,
): Promise<number> {
  const { table, name, clock } = deps;
  let dead = 0;
  for (const stored of await readQueuedJobs(table, name, deps.schema)) {
    if (!stored.readable) {
      await table.transact(deadLetterOps(name, stored, 0, `unreadable job: ${stored.error}`, clock.now()));
      dead += 1;
      continue;
    }
    onJob({ id: stored.id, body: stored.body, attempt: stored.attempts + 1 }, stored.visibleMs);
  }
  return dead;
}

/** Deletes the queued jobs `ids`, in transactions of at most MAX_TRANSACTION_OPS. */
export async function deleteJobs(table: Table, queue: string, ids: string[]): Promise<void> {
  for (const chunk of chunks(ids, MAX_TRANSACTION_OPS)) {
    await table.transact(chunk.map((id) => jobAckedOp(queue, id)));
  }
}
