import * as z from 'zod';
import { isoTime } from '../platform/clock.ts';
import { defineItem } from '../store/item-definition.ts';
import { itemType } from '../store/item-type.ts';
import { queryAll } from '../store/items.ts';
import type { Table, UpdateOp, WriteOp } from '../store/table.ts';

/**
 * Owner of `queue_job` and `dead_letter`, the stored items of the local job queue
 * (lib/local/sqlite-job-queue.ts): a queued job under `QUEUE#<name>` keyed by its id, and a dead
 * letter under `DEADLETTER#<name>` sorted by when it died. Neither is part of the change feed
 * (STREAM_ENTITIES leaves them out).
 */

const queuePk = (queue: string): string => `QUEUE#${queue}`;
const deadLetterPk = (queue: string): string => `DEADLETTER#${queue}`;

const queueJobSchema = z.object({
  body: z.unknown(),
  /** Failed attempts so far. */
  attempts: z.number().int().min(0),
  visible_ms: z.number().int(),
});

const queueJob = defineItem({
  type: itemType('queue_job'),
  schema: queueJobSchema,
  key: (k: { queue: string; id: string }) => ({ pk: queuePk(k.queue), sk: k.id }),
  // The job id is the sort key only: the record does not repeat it.
  keyOf: (_r, c: { queue: string; id: string }) => c,
  docKey: { queue: '<name>', id: '<job id>' },
});

const deadLetterSchema = z.object({
  job_id: z.string(),
  body: z.unknown().optional(),
  attempts: z.number().int(),
  error: z.string(),
  dead_at: z.string(),
});

const deadLetter = defineItem({
  type: itemType('dead_letter'),
  schema: deadLetterSchema,
  key: (k: { queue: string; dead_at: string; job_id: string }) => ({
    pk: deadLetterPk(k.queue),
    sk: `${k.dead_at}#${k.job_id}`,
  }),
  keyOf: (r, c: { queue: string }) => ({ queue: c.queue, dead_at: r.dead_at, job_id: r.job_id }),
  docKey: { queue: '<name>', dead_at: '<dead ISO>', job_id: '<job id>' },
});

/** A dead letter as listed. */
export interface DeadLetter {
  id: string;
  body: unknown;
  attempts: number;
  error: string;
  dead_at: string;
}

/** A stored job as read back at start: readable (its attempts and visible time), or not (it becomes a dead letter). */
export type StoredJob<B> =
  | { readable: true; id: string; body: B; attempts: number; visibleMs: number }
  | { readable: false; id: string; body: unknown; error: z.ZodError };

/** The put of a job newly queued, visible at `visibleMs`, with no failed attempt yet (`itemNotExists`: an id is queued once). */
export function jobQueuedOp(queue: string, job: { id: string; body: unknown }, visibleMs: number): WriteOp {
  return queueJob.put(
    { body: job.body, attempts: 0, visible_ms: visibleMs },
    { kind: 'itemNotExists' },
    {
      queue,
      id: job.id,
    },
  );
}

/** The delete of a queued job (its ack). */
export function jobAckedOp(queue: string, id: string): WriteOp {
  return queueJob.delete({ queue, id });
}

/** The update of a failed job's attempt count and next visible time; it fails its condition once the job was acked. */
export function jobRetriedOp(queue: string, id: string, attempts: number, visibleMs: number): UpdateOp {
  return queueJob.update(
    { queue, id },
    { set: { attempts, visible_ms: visibleMs }, condition: { kind: 'itemExists' } },
  );
}

const errorText = (error: unknown): string =>
  error instanceof Error ? `${error.name}: ${error.message}` : String(error ?? 'failed');

/** The writes that move a queued job to the dead letters (its delete and the letter's put), in one transaction. */
export function deadLetterOps(
  queue: string,
  job: { id: string; body: unknown },
  attempts: number,
  error: unknown,
  nowMs: number,
): WriteOp[] {
  const letter = {
    job_id: job.id,
    // Items store no undefined (an unreadable item may have no body).
    ...(job.body !== undefined ? { body: job.body } : {}),
    attempts,
    error: errorText(error).slice(0, 2000),
    dead_at: isoTime(nowMs),
  };
  return [jobAckedOp(queue, job.id), deadLetter.put(letter, undefined, { queue })];
}

/** A queue's stored jobs in key order (consistent), each readable or not, with its body parsed by `schema`. */
export async function readQueuedJobs<B>(
  table: Table,
  queue: string,
  schema: z.ZodType<B>,
): Promise<StoredJob<B>[]> {
  const pk = queuePk(queue);
  const items = await queryAll((cursor) => table.query({ pk, limit: 1000, cursor, consistent: true }));
  return items.map((item): StoredJob<B> => {
    const stored = queueJobSchema.safeParse(item);
    if (!stored.success) return { readable: false, id: item.sk, body: item.body, error: stored.error };
    const body = schema.safeParse(stored.data.body);
    if (!body.success) return { readable: false, id: item.sk, body: item.body, error: body.error };
    const { attempts, visible_ms: visibleMs } = stored.data;
    return { readable: true, id: item.sk, body: body.data, attempts, visibleMs };
  });
}

/** A queue's dead letters, oldest first (consistent). */
export async function listDeadLetters(table: Table, queue: string, limit: number): Promise<DeadLetter[]> {
  const page = await table.query({ pk: deadLetterPk(queue), limit, consistent: true });
  return page.items.map((item) => {
    const d = deadLetter.parse(item);
    return { id: d.job_id, body: d.body, attempts: d.attempts, error: d.error, dead_at: d.dead_at };
  });
}

/**
 * The writes that put a dead letter back in its queue, visible at `visibleMs` with no failed
 * attempt (`itemNotExists`: a job of that id queued meanwhile stays as it is), and delete the letter.
 */
export function deadLetterRedrivenOps(queue: string, letter: DeadLetter, visibleMs: number): WriteOp[] {
  return [
    deadLetter.delete({ queue, dead_at: letter.dead_at, job_id: letter.id }),
    jobQueuedOp(queue, { id: letter.id, body: letter.body }, visibleMs),
  ];
}

/** The delete of a dead letter alone (its job is queued again already). */
export function deadLetterDroppedOp(queue: string, letter: DeadLetter): WriteOp {
  return deadLetter.delete({ queue, dead_at: letter.dead_at, job_id: letter.id });
}
