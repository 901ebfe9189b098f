import type { z } from 'zod';
import { chunks } from '../platform/chunks.ts';
import type { Clock } from '../platform/clock.ts';
import {
  afterFailure,
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_RETRIES,
  enqueuedDelaySeconds,
  type JobQueueAdapter,
  type ReceivedJob,
} from '../platform/job-queue.ts';
import type { Logger } from '../platform/logger.ts';
import { ConditionFailedError, MAX_TRANSACTION_OPS, type Table, type WriteOp } from '../store/table.ts';
import {
  type DeadLetter,
  deadLetterOps,
  jobAckedOp,
  jobQueuedOp,
  jobRetriedOp,
  listDeadLetters,
} from './job-queue-items.ts';
import { deleteJobs, putNewJobs, readStoredJobs } from './job-queue-store.ts';
import { createTimerHeap, systemTimers, type Timers } from './timer-heap.ts';

/**
 * The local job queue: each job is an item of the single table (`QUEUE#<name>`, keyed by the job
 * id, so an id is stored once), and an in-memory timer heap fires it when it becomes visible. A
 * failed attempt writes its attempt count and its next visible time to the item, so a restart
 * resumes retries where they were; a dead letter moves to `DEADLETTER#<name>`. Jobs are held by
 * this process from their enqueue (or the load at start) until they are acked or dead: one process
 * serves a queue. Queue items are not part of the change feed (STREAM_ENTITIES leaves them out).
 */

/** A job waiting in the heap, ready, or delivered: the same object through its retries. */
interface Held<B> {
  id: string;
  body: B;
  attempt: number;
}

export interface SqliteJobQueueDeps<B> {
  table: Table;
  name: string;
  /** Parses a body read back from the table (after a restart). */
  schema: z.ZodType<B>;
  clock: Clock;
  logger: Logger;
  timers?: Timers;
  /** Attempts before a dead letter; default DEFAULT_MAX_ATTEMPTS. */
  maxAttempts?: number;
}

/** A named durable queue in the SQLite table (see the file comment). */
export function createSqliteJobQueue<B>(deps: SqliteJobQueueDeps<B>) {
  const { table, name, clock, logger } = deps;
  const maxAttempts = deps.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const held = new Map<string, Held<B>>();
  let ready: Held<B>[] = [];
  let listener: ((jobs: ReceivedJob<B>[]) => void) | undefined;
  let closed = false;

  const delivery = (job: Held<B>): ReceivedJob<B> => ({
    id: job.id,
    body: job.body,
    attempt: job.attempt,
    receipt: job.id,
  });

  const heap = createTimerHeap<Held<B>>({
    clock,
    timers: deps.timers ?? systemTimers,
    onDue: (fired) => {
      // A job acked meanwhile (delivered by other means) is no longer held: it does not fire.
      const jobs = fired.filter((job) => held.get(job.id) === job);
      if (listener) listener(jobs.map(delivery));
      else ready.push(...jobs);
    },
  });

  /** Holds a job in memory and times it; false when this process holds it already. */
  const hold = (job: Held<B>, visibleMs: number): boolean => {
    if (closed || held.has(job.id)) return false;
    held.set(job.id, job);
    heap.add(visibleMs, job);
    return true;
  };

  const queue = {
    name,

    async enqueue(jobs, options = {}) {
      const nowMs = clock.now();
      const unique = new Map<string, { job: Held<B>; op: WriteOp; visibleMs: number }>();
      for (const input of jobs) {
        if (held.has(input.id) || unique.has(input.id)) continue;
        const visibleMs = nowMs + enqueuedDelaySeconds(input, options) * 1000;
        const job = { id: input.id, body: input.body, attempt: 1 };
        unique.set(input.id, { job, op: jobQueuedOp(name, job, visibleMs), visibleMs });
      }
      const entries = [...unique.values()];
      try {
        const stored = await putNewJobs(table, entries);
        for (const entry of entries) if (stored.has(entry.job.id)) hold(entry.job, entry.visibleMs);
        return { failed: [] };
      } catch (err) {
        logger.warn('enqueue failed', { queue: name, jobs: entries.length, err });
        return { failed: entries.map((e) => e.job.id) };
      }
    },

    async receive(options = {}) {
      const max = options.max ?? 10;
      for (const job of heap.takeDue()) if (held.get(job.id) === job) ready.push(job);
      const taken = ready.slice(0, max);
      ready = ready.slice(taken.length);
      return taken.map(delivery);
    },

    async ack(jobs) {
      for (const chunk of chunks(jobs, MAX_TRANSACTION_OPS)) {
        await table.transact(chunk.map((job) => jobAckedOp(name, job.id)));
        for (const job of chunk) held.delete(job.id);
      }
    },

    async fail(job, error) {
      const outcome = afterFailure(job.attempt, { ...DEFAULT_RETRIES, maxAttempts }, error);
      const current = held.get(job.id) ?? { id: job.id, body: job.body, attempt: job.attempt };
      if (outcome.status === 'dead') {
        await table.transact(deadLetterOps(name, job, job.attempt, error, clock.now()));
        held.delete(job.id);
        logger.warn('job dead-lettered', { queue: name, job_id: job.id, attempts: job.attempt, err: error });
        return outcome;
      }
      const visibleMs = clock.now() + outcome.retryInSeconds * 1000;
      try {
        await table.transact([jobRetriedOp(name, job.id, job.attempt, visibleMs)]);
      } catch (err) {
        if (!(err instanceof ConditionFailedError)) throw err;
        // Acked meanwhile (a duplicate delivery finished it): nothing is left to retry.
        held.delete(job.id);
        return { status: 'dead' };
      }
      current.attempt = job.attempt + 1;
      held.set(job.id, current);
      if (!closed) heap.add(visibleMs, current);
      return outcome;
    },

    /** Hands due jobs to `onJobs` as they become visible, instead of keeping them for receive(). */
    consume(onJobs: (jobs: ReceivedJob<B>[]) => void): void {
      listener = onJobs;
      const waiting = ready;
      ready = [];
      if (waiting.length > 0) onJobs(waiting.map(delivery));
    },

    /**
     * The puts of new jobs for the caller's own transaction (visible at `visibleAtMs`, ms precise),
     * and `committed`, which times them once that transaction has committed.
     */
    enqueueOps(jobs: { id: string; body: B; visibleAtMs: number }[]): { ops: WriteOp[]; committed(): void } {
      const entries = jobs.map((j) => ({
        job: { id: j.id, body: j.body, attempt: 1 },
        visibleMs: j.visibleAtMs,
      }));
      return {
        ops: entries.map(({ job, visibleMs }) => jobQueuedOp(name, job, visibleMs)),
        committed: () => {
          for (const { job, visibleMs } of entries) hold(job, visibleMs);
        },
      };
    },

    /**
     * Stores and times new jobs visible at `visibleAtMs` (ms precise), each only if its id is not
     * stored yet: an id queued already (by this process or before a restart) is left as it is.
     * Answers how many were new.
     */
    async enqueueAt(jobs: { id: string; body: B; visibleAtMs: number }[]): Promise<number> {
      const unique = new Map<string, { job: Held<B>; op: WriteOp; visibleMs: number }>();
      for (const input of jobs) {
        if (held.has(input.id) || unique.has(input.id)) continue;
        const job = { id: input.id, body: input.body, attempt: 1 };
        unique.set(input.id, {
          job,
          op: jobQueuedOp(name, job, input.visibleAtMs),
          visibleMs: input.visibleAtMs,
        });
      }
      const entries = [...unique.values()];
      const stored = await putNewJobs(table, entries);
      for (const entry of entries) if (stored.has(entry.job.id)) hold(entry.job, entry.visibleMs);
      return stored.size;
    },

    /** The op that acks a job inside the caller's own transaction (its result's, for a probe job). */
    ackOp: (job: ReceivedJob<B>): WriteOp => jobAckedOp(name, job.id),

    /** Forgets a job whose ack the caller committed in its own transaction. */
    acked(job: ReceivedJob<B>): void {
      held.delete(job.id);
    },

    /** Whether this process holds the job (waiting, ready or delivered). */
    holds: (id: string): boolean => held.has(id),

    /**
     * Loads the jobs stored before a restart: each becomes visible at its stored time with its
     * attempt count; one `keep` refuses is deleted, one that does not parse becomes a dead letter.
     */
    async load(
      keep: (job: ReceivedJob<B>) => boolean = () => true,
    ): Promise<{ resumed: number; dropped: number }> {
      const drop: string[] = [];
      let resumed = 0;
      const dead = await readStoredJobs(deps, (job, visibleMs) => {
        if (!keep(delivery(job))) drop.push(job.id);
        else if (hold(job, visibleMs)) resumed += 1;
      });
      await deleteJobs(table, name, drop);
      return { resumed, dropped: drop.length + dead };
    },

    /** The dead letters, oldest first. */
    async deadLetters(limit = 100): Promise<DeadLetter[]> {
      return listDeadLetters(table, name, limit);
    },

    /** Stops timing jobs (they stay stored for the next start); returns how many were waiting. */
    /** Jobs this process holds (waiting for their time, or handed out and not acked yet): GET /metrics. */
    depth(): number {
      return held.size;
    },

    close(): number {
      closed = true;
      const dropped = heap.clear().length + ready.length;
      ready = [];
      return dropped;
    },

    /** Jobs waiting for their time. */
    get timed(): number {
      return heap.size;
    },
  } satisfies JobQueueAdapter<B>;
  return queue;
}

export type SqliteJobQueue<B> = ReturnType<typeof createSqliteJobQueue<B>>;
