import { z } from 'zod';
import { isoTime } from '../platform/clock.ts';
import { itemType, stamp } from '../store/item-type.ts';
import type { NewItem, WriteOp } from '../store/table.ts';

/**
 * The stored items of the local job queue (lib/local/sqlite-job-queue.ts): a queued job under
 * `QUEUE#<name>` keyed by its id, and a dead letter under `DEADLETTER#<name>` sorted by when it
 * died. Neither is part of the change feed (STREAM_ENTITIES leaves them out).
 */

export const QUEUE_JOB = itemType('queue_job');
export const DEAD_LETTER = itemType('dead_letter');

/** The partition of a queue's jobs. */
export const queuePk = (name: string): string => `QUEUE#${name}`;
/** The partition of a queue's dead letters. */
export const deadLetterPk = (name: string): string => `DEADLETTER#${name}`;

export const storedJobSchema = z.object({
  sk: z.string(),
  body: z.unknown(),
  /** Failed attempts so far. */
  attempts: z.number().int().min(0),
  visible_ms: z.number().int(),
});

/** A dead letter as listed. */
export interface DeadLetter {
  id: string;
  body: unknown;
  attempts: number;
  error: string;
  dead_at: string;
}

export const deadLetterSchema = z.object({
  job_id: z.string(),
  body: z.unknown().optional(),
  attempts: z.number().int(),
  error: z.string(),
  dead_at: z.string(),
});

const errorText = (error: unknown): string =>
  error instanceof Error ? `${error.name}: ${error.message}` : String(error ?? 'failed');

/** The dead letter of a job that failed its last attempt (or could not be read back). */
export function deadLetterItem(
  queue: string,
  job: { id: string; body: unknown },
  attempts: number,
  error: unknown,
  nowMs: number,
): NewItem {
  return {
    pk: deadLetterPk(queue),
    sk: `${isoTime(nowMs)}#${job.id}`,
    ...stamp(DEAD_LETTER),
    job_id: job.id,
    // Items store no undefined (an unreadable item may have no body).
    ...(job.body !== undefined ? { body: job.body } : {}),
    attempts,
    error: errorText(error).slice(0, 2000),
    dead_at: isoTime(nowMs),
  };
}

/** The item of a job newly queued under `pk`, visible at `visibleMs`, with no failed attempt yet. */
export function queueJobItem(pk: string, job: { id: string; body: unknown }, visibleMs: number): NewItem {
  return { pk, sk: job.id, ...stamp(QUEUE_JOB), body: job.body, attempts: 0, visible_ms: visibleMs };
}

/** The writes that move a queued job to the dead letters, in one transaction. */
export function deadLetterOps(
  queue: string,
  job: { id: string; body: unknown },
  attempts: number,
  error: unknown,
  nowMs: number,
): WriteOp[] {
  return [
    { type: 'delete', key: { pk: queuePk(queue), sk: job.id } },
    { type: 'put', item: deadLetterItem(queue, job, attempts, error, nowMs) },
  ];
}
