/**
 * The job-queue port: named queues of JSON jobs with a delay, received, acknowledged or failed.
 * Adapters: the local durable queue in the SQLite table (lib/local/sqlite-job-queue.ts) and SQS
 * (lib/cloud/queues/sqs-job-queue.ts); test/platform/job-queue-contract.ts holds what both must do.
 *
 * Idempotency: every job has an `id` chosen by its producer, and every delivery of it carries that
 * id (the same on a retry, a redelivery and a re-enqueue). Delivery is at least once, so consumers
 * key their effect by it (a probe result is keyed by its check and slot). The local adapter also
 * stores an id once: re-enqueueing an id that is still queued adds nothing. SQS standard queues
 * cannot refuse a duplicate; there the second message arrives with the same id.
 *
 * Retries: a failed attempt comes back after 1 s, 2 s, 4 s … (doubling up to the queue's cap, or
 * the delay a RetryLaterError names); after the last attempt (4 in all by default; the notify and
 * action queues on SQS outlast a 15-minute store outage, OUTAGE_RETRIES) the job is a dead letter,
 * kept for inspection and never run again by itself (until an operator redrives it).
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

/**
 * What an adapter's queue object satisfies: the port, whose methods take their parameter and result
 * types from it (stated once, here), and the adapter's own extras for its runtime.
 */
export type JobQueueAdapter<B> = JobQueue<B> & Record<string, unknown>;

/** Attempts per job, the first included, before it becomes a dead letter. */
export const DEFAULT_MAX_ATTEMPTS = 4;
/** The longest delay SQS allows (15 minutes); the local queue keeps the same bound. */
export const MAX_DELAY_SECONDS = 900;

/** How a queue spaces the attempts of a job: delays doubling from 1 s up to a cap, and how many attempts. */
export interface RetrySchedule {
  /** Attempts, the first included, before a dead letter (on SQS, the redrive maxReceiveCount). */
  maxAttempts: number;
  /** The longest delay between two attempts. */
  capSeconds: number;
}

/** The probe queue and the local queues: 1 s, 2 s, 4 s, then a dead letter. */
export const DEFAULT_RETRIES: RetrySchedule = {
  maxAttempts: DEFAULT_MAX_ATTEMPTS,
  capSeconds: MAX_DELAY_SECONDS,
};

/** How long the notify and action queues keep retrying through a store outage before a job dead-letters. */
const OUTAGE_COVER_SECONDS = 900;
/**
 * Failed attempts a delivery may spend on its receiver (its 1st and 2nd; the 3rd ends it): they
 * take receives of the job without the schedule's delays, so the cover does not count them.
 */
const RECEIVER_ATTEMPTS = 2;

/**
 * A schedule whose delays (1, 2, 4 … `capSeconds`) add up to at least `coverSeconds` even when a
 * delivery's receiver failures took two of the receives: what a store outage may last before a
 * job dead-letters.
 */
export function outageRetries(capSeconds: number, coverSeconds = OUTAGE_COVER_SECONDS): RetrySchedule {
  let waited = 0;
  let failures = 0;
  while (waited < coverSeconds) {
    failures += 1;
    waited += retryDelaySeconds(failures, capSeconds);
  }
  // The failures that wait, the receiver's, and the last one (after which the job dead-letters).
  return { maxAttempts: failures + RECEIVER_ATTEMPTS + 1, capSeconds };
}

/**
 * The notify and action queues: a store outage is retried with growing delays capped at a minute
 * (an alert leaves within a minute of the store's return) for at least 15 minutes (23 receives).
 */
export const OUTAGE_RETRIES = outageRetries(60);

/**
 * Thrown by a job's handler that knows when the job should come back (a delivery's 1 s, then 2 s,
 * whatever the job's receive count): the queue uses `retryInSeconds` instead of its schedule.
 */
export class RetryLaterError extends Error {
  override name = 'RetryLaterError';
  readonly retryInSeconds: number;
  constructor(message: string, retryInSeconds: number, options?: ErrorOptions) {
    super(message, options);
    this.retryInSeconds = retryInSeconds;
  }
}

/** The delay after failed attempt `attempt` (1-based): 1 s, 2 s, 4 s, ... at most `capSeconds`. */
export function retryDelaySeconds(attempt: number, capSeconds = MAX_DELAY_SECONDS): number {
  return Math.min(capSeconds, MAX_DELAY_SECONDS, 2 ** Math.max(0, attempt - 1));
}

/** What follows failed attempt `attempt` under `schedule`; an `error` naming its delay is retried after it. */
export function afterFailure(
  attempt: number,
  schedule: RetrySchedule = DEFAULT_RETRIES,
  error?: unknown,
): FailOutcome {
  if (attempt >= schedule.maxAttempts) return { status: 'dead' };
  const retryInSeconds =
    error instanceof RetryLaterError
      ? clampDelaySeconds(error.retryInSeconds)
      : retryDelaySeconds(attempt, schedule.capSeconds);
  return { status: 'retry', retryInSeconds };
}

/** A delay within 0..MAX_DELAY_SECONDS whole seconds. */
function clampDelaySeconds(seconds: number): number {
  return Math.min(MAX_DELAY_SECONDS, Math.max(0, Math.ceil(seconds)));
}

/** The delay one job of an enqueue call waits: its own, else the call's (0), within 0..900 s. */
export function enqueuedDelaySeconds(job: JobInput<unknown>, options: EnqueueOptions): number {
  return clampDelaySeconds(job.delaySeconds ?? options.delaySeconds ?? 0);
}

/** The delay that starts a job at `dueMs`: whole seconds from `nowMs`, rounded up, within 0..900. */
export function delaySecondsFor(dueMs: number, nowMs: number): number {
  return clampDelaySeconds((dueMs - nowMs) / 1000);
}
