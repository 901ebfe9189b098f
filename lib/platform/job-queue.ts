/**
 * The job-queue port: named queues of JSON jobs with a delay, received, acknowledged or failed.
 * Adapters: the local durable queue in the SQLite table (lib/local/sqlite-job-queue.ts) and SQS
 * (lib/cloud/sqs-job-queue.ts); test/platform/job-queue-contract.ts holds what both must do.
 *
 * Idempotency: every job has an `id` chosen by its producer, and every delivery of it carries that
 * id (the same on a retry, a redelivery and a re-enqueue). Delivery is at least once, so consumers
 * key their effect by it (a probe result is keyed by its check and slot). The local adapter also
 * stores an id once: re-enqueueing an id that is still queued adds nothing. SQS standard queues
 * cannot refuse a duplicate; there the second message arrives with the same id.
 *
 * Retries: a failed attempt comes back after 1 s, 2 s, 4 s; after the last attempt (4 in all by
 * default) the job is a dead letter, kept for inspection and never run again by itself.
 */

/** A job as produced: its idempotency key, a JSON body, and optionally its own delay. */
export interface JobInput<B = unknown> {
  id: string;
  body: B;
  /** Overrides the call's `delaySeconds` for this job. */
  delaySeconds?: number;
}

export interface EnqueueOptions {
  /** Seconds before the jobs can be received; default 0, at most MAX_DELAY_SECONDS. */
  delaySeconds?: number;
}

/** What enqueue did: ids that could not be enqueued (the caller may try them again later). */
export interface EnqueueResult {
  failed: string[];
}

/** One delivery of a job. */
export interface ReceivedJob<B = unknown> {
  id: string;
  body: B;
  /** 1 on the first delivery, then counting retries (SQS: ApproximateReceiveCount). */
  attempt: number;
  /** Identifies this delivery to ack and fail (SQS: the receipt handle). */
  receipt: string;
}

/** What a failed attempt led to: another attempt after `retryInSeconds`, or a dead letter. */
export type FailOutcome = { status: 'retry'; retryInSeconds: number } | { status: 'dead' };

/** One named queue of jobs whose bodies are `B` (each adapter parses bodies it reads back). */
export interface JobQueue<B = unknown> {
  readonly name: string;
  /** Adds jobs, visible after their delay. */
  enqueue(jobs: JobInput<B>[], options?: EnqueueOptions): Promise<EnqueueResult>;
  /** Takes up to `max` (default 10) visible jobs; they stay hidden until acked or failed. */
  receive(options?: { max?: number }): Promise<ReceivedJob<B>[]>;
  /** Removes delivered jobs for good. */
  ack(jobs: ReceivedJob<B>[]): Promise<void>;
  /** Ends a failed attempt: the job comes back after the retry delay, or becomes a dead letter. */
  fail(job: ReceivedJob<B>, error?: unknown): Promise<FailOutcome>;
}

/** Attempts per job, the first included, before it becomes a dead letter. */
export const DEFAULT_MAX_ATTEMPTS = 4;
/** The longest delay SQS allows (15 minutes); the local queue keeps the same bound. */
export const MAX_DELAY_SECONDS = 900;

/** The delay after failed attempt `attempt` (1-based): 1 s, 2 s, 4 s, ... */
export function retryDelaySeconds(attempt: number): number {
  return 2 ** Math.max(0, attempt - 1);
}

/** What follows failed attempt `attempt` of `maxAttempts`. */
export function afterFailure(attempt: number, maxAttempts = DEFAULT_MAX_ATTEMPTS): FailOutcome {
  return attempt >= maxAttempts
    ? { status: 'dead' }
    : { status: 'retry', retryInSeconds: retryDelaySeconds(attempt) };
}

/** A delay within 0..MAX_DELAY_SECONDS whole seconds. */
export function clampDelaySeconds(seconds: number): number {
  return Math.min(MAX_DELAY_SECONDS, Math.max(0, Math.ceil(seconds)));
}

/** The delay that starts a job at `dueMs`: whole seconds from `nowMs`, rounded up, within 0..900. */
export function delaySecondsFor(dueMs: number, nowMs: number): number {
  return clampDelaySeconds((dueMs - nowMs) / 1000);
}
