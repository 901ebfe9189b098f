import type { z } from 'zod';
import { chunks } from '../platform/chunks.ts';
import type { Clock } from '../platform/clock.ts';
import { queryAll } from '../store/items.ts';
import {
  ConditionFailedError,
  type Key,
  MAX_TRANSACTION_OPS,
  type NewItem,
  type Table,
} from '../store/table.ts';
import {
  type DeadLetter,
  deadLetterOps,
  deadLetterPk,
  deadLetterSchema,
  queuePk,
  storedJobSchema,
} from './job-queue-items.ts';

/**
 * The table reads and writes of the local job queue (lib/local/sqlite-job-queue.ts) that need none
 * of its in-memory state: conditional puts of new jobs, the load of stored jobs at start, deletes in
 * chunks, and the dead-letter listing.
 */

/** Puts items (not already stored) in chunks; returns the ids whose put committed. */
export async function putNewJobs(
  table: Table,
  entries: { job: { id: string }; item: NewItem }[],
): Promise<Set<string>> {
  const stored = new Set<string>();
  for (let chunk of chunks(entries, MAX_TRANSACTION_OPS)) {
    while (chunk.length > 0) {
      try {
        await table.transact(
          chunk.map(({ item }) => ({
            type: 'put' as const,
            item,
            condition: { kind: 'itemNotExists' as const },
          })),
        );
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
  const pk = queuePk(name);
  const items = await queryAll((cursor) => table.query({ pk, limit: 1000, cursor, consistent: true }));
  let dead = 0;
  for (const item of items) {
    const stored = storedJobSchema.safeParse(item);
    const body = stored.success ? deps.schema.safeParse(stored.data.body) : undefined;
    if (!stored.success || !body?.success) {
      const error = stored.success ? body?.error : stored.error;
      await table.transact(
        deadLetterOps(name, { id: item.sk, body: item.body }, 0, `unreadable job: ${error}`, clock.now()),
      );
      dead += 1;
      continue;
    }
    onJob({ id: stored.data.sk, body: body.data, attempt: stored.data.attempts + 1 }, stored.data.visible_ms);
  }
  return dead;
}

/** Deletes the items at `keys`, in transactions of at most MAX_TRANSACTION_OPS. */
export async function deleteKeys(table: Table, keys: Key[]): Promise<void> {
  for (const chunk of chunks(keys, MAX_TRANSACTION_OPS)) {
    await table.transact(chunk.map((key) => ({ type: 'delete' as const, key })));
  }
}

/** A queue's dead letters, oldest first. */
export async function listDeadLetters(table: Table, name: string, limit: number): Promise<DeadLetter[]> {
  const page = await table.query({ pk: deadLetterPk(name), limit, consistent: true });
  return page.items.map((item) => {
    const d = deadLetterSchema.parse(item);
    return { id: d.job_id, body: d.body, attempts: d.attempts, error: d.error, dead_at: d.dead_at };
  });
}
