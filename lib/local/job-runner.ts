import type { ReceivedJob } from '../platform/job-queue.ts';
import type { Logger } from '../platform/logger.ts';
import type { SqliteJobQueue } from './sqlite-job-queue.ts';

export interface JobRunnerOptions<B> {
  queue: Pick<SqliteJobQueue<B>, 'name' | 'consume' | 'ack' | 'fail'>;
  /** Does the job's work; throwing fails the attempt (the queue brings it back after its retry delay). */
  handle(job: ReceivedJob<B>): Promise<void>;
  /** Jobs run at once. */
  concurrency: number;
  logger: Logger;
}

export interface JobRunner {
  /** Stops starting jobs and waits for the running ones; jobs not started stay stored for the next start. */
  stop(): Promise<void>;
  /** Resolves once no job is waiting or running, a moment after the last (tests wait on it). */
  idle(): Promise<void>;
  /** Jobs handed over and not finished yet (waiting for a slot or running). */
  readonly pending: number;
}

/** How long idle() waits for a job timed for now to be handed over (the queue's timer fires on the next turn). */
const IDLE_GRACE_MS = 5;

/** Runs a local queue's jobs as they become visible: ack on success, fail on throw, at most `concurrency` at once. */
export function startJobRunner<B>(options: JobRunnerOptions<B>): JobRunner {
  const { queue, logger } = options;
  const waiting: ReceivedJob<B>[] = [];
  const running = new Set<Promise<void>>();
  let stopped = false;
  let idleWaiters: (() => void)[] = [];

  const settleIdle = () => {
    if (waiting.length > 0 || running.size > 0) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  };

  const runOne = async (job: ReceivedJob<B>): Promise<void> => {
    try {
      await options.handle(job);
      await queue.ack([job]);
    } catch (err) {
      try {
        const outcome = await queue.fail(job, err);
        logger.warn('job failed', { queue: queue.name, job_id: job.id, attempt: job.attempt, outcome, err });
      } catch (failErr) {
        // The job stays stored with its attempt: the next start runs it again.
        logger.error('job fail not recorded', { queue: queue.name, job_id: job.id, err: failErr });
      }
    }
  };

  const pump = () => {
    while (!stopped && running.size < options.concurrency) {
      const job = waiting.shift();
      if (!job) break;
      const run: Promise<void> = runOne(job).finally(() => {
        running.delete(run);
        pump();
        settleIdle();
      });
      running.add(run);
    }
    settleIdle();
  };

  queue.consume((jobs) => {
    if (stopped) return;
    waiting.push(...jobs);
    pump();
  });

  return {
    async stop() {
      stopped = true;
      waiting.length = 0;
      while (running.size > 0) await Promise.allSettled([...running]);
      settleIdle();
    },
    async idle() {
      for (;;) {
        if (waiting.length > 0 || running.size > 0)
          await new Promise<void>((resolve) => idleWaiters.push(resolve));
        await new Promise((resolve) => setTimeout(resolve, IDLE_GRACE_MS));
        if (waiting.length === 0 && running.size === 0) return;
      }
    },
    get pending() {
      return waiting.length + running.size;
    },
  };
}
