import { generateShard } from '../checks/generator.ts';
import { type JobRunnerDeps, type ProbeJob, runProbeJob } from '../checks/probe-job.ts';
import type { Clock } from '../platform/clock.ts';
import type { ReceivedJob } from '../platform/job-queue.ts';
import type { Logger } from '../platform/logger.ts';
import type { SqliteTable } from '../store/sqlite-table.ts';
import type { Table } from '../store/table.ts';
import { commitClaims, createProbeQueue, type LocalProbeBody } from './probe-queue.ts';
import { sweepRetention } from './retention-sweep.ts';
import { createTickLoop } from './tick-loop.ts';
import { systemTimers, type Timers } from './timer-heap.ts';
import { createWorkerPool } from './worker-pool.ts';

/** Reported when a worker starts a job (the benchmark measures lateness as startedMs - dueMs). */
export interface JobStart {
  dueMs: number;
  startedMs: number;
  job: ProbeJob;
}

export interface SchedulerOptions {
  /** Generator tick period; default 1 s. */
  tickMs?: number;
  /** How far past the next tick a tick claims, so slow ticks never make a job late; default 500 ms. */
  lookaheadMs?: number;
  /** Retention sweep period; default 60 s. */
  sweepEveryMs?: number;
  /** How long stop() waits for running jobs before abandoning them (their queue items stay); default 3 s. */
  stopGraceMs?: number;
  /** Runs of a job that throws before it becomes a dead letter; default 4 (retried after 1 s, 2 s, 4 s). */
  maxAttempts?: number;
  onJobStart?: (start: JobStart) => void;
  /** Reported when a probe actually began (on a probe thread, a moment after its job started). */
  onProbeStart?: (start: JobStart) => void;
  timers?: Timers;
}

export interface SchedulerDeps extends SchedulerOptions {
  table: Table & Pick<SqliteTable, 'sweepExpired'>;
  jobRunner: JobRunnerDeps;
  clock: Clock;
  logger: Logger;
  dueShards: number;
  /** Jobs running at once (config.workerConcurrency). */
  concurrency: number;
}

/** Due checks read per generator query on a tick, and claimed per shard per tick at most. */
const TICK_PAGE = 100;
const MAX_CLAIMS_PER_SHARD = 100_000;

/** What became of one run of a queued job. */
export type JobStatus = 'recorded' | 'duplicate' | 'gone' | 'skipped' | 'retry' | 'dead' | 'abandoned';

type ProbeDelivery = ReceivedJob<LocalProbeBody>;

/**
 * The local scheduler: a 1 s tick claims due checks into the probe job queue (see probe-queue.ts),
 * whose timer heap hands each job over at its due time to a bounded worker pool that runs it,
 * committing its result and its ack together. A job that throws is failed on the queue (retried
 * after 1 s, 2 s, 4 s, then a dead letter). A tick also sweeps expired items every `sweepEveryMs`.
 */
export function createScheduler(deps: SchedulerDeps) {
  const { table, clock, logger } = deps;
  const timers = deps.timers ?? systemTimers;
  const tickMs = deps.tickMs ?? 1000;
  const lookaheadMs = deps.lookaheadMs ?? 500;
  const sweepEveryMs = deps.sweepEveryMs ?? 60_000;
  const maxWaiting = deps.concurrency * 2;
  const queue = createProbeQueue({
    table,
    clock,
    logger,
    timers,
    ...(deps.maxAttempts !== undefined ? { maxAttempts: deps.maxAttempts } : {}),
  });
  let started = false;
  let stopped = false;
  let lastSweepMs = Number.NEGATIVE_INFINITY;

  const execute = async (delivery: ProbeDelivery, onProbed?: () => void): Promise<JobStatus> => {
    const job = delivery.body;
    const dueMs = job.slot_ms;
    try {
      deps.onJobStart?.({ dueMs, startedMs: clock.now(), job });
    } catch (err) {
      logger.warn('onJobStart hook failed', { err });
    }
    try {
      const onProbeStart = deps.onProbeStart;
      const outcome = await runProbeJob(job, deps.jobRunner, {
        alsoCommit: queue.ackOp(delivery),
        ...(onProbed ? { onProbed } : {}),
        ...(onProbeStart
          ? {
              onProbeStart: (startedMs: number) => {
                try {
                  onProbeStart({ dueMs, startedMs, job });
                } catch (err) {
                  logger.warn('onProbeStart hook failed', { err });
                }
              },
            }
          : {}),
      });
      // A recorded result acked the job in its own transaction; anything else acks it here.
      if (outcome.status === 'recorded') queue.acked(delivery);
      else await queue.ack([delivery]);
      return outcome.status;
    } catch (err) {
      const fields = { check_id: job.check_id, slot_ms: job.slot_ms, attempt: delivery.attempt, err };
      if (stopped) {
        logger.debug('probe job abandoned at stop; left queued', fields);
        return 'abandoned';
      }
      const failed = await queue.fail(delivery, err);
      if (failed.status === 'retry') logger.warn('probe job failed; will retry', fields);
      else logger.error('probe job failed too often; dead-lettered', fields);
      return failed.status;
    }
  };

  /**
   * Jobs whose probe has answered and whose result is being recorded. A job leaves its worker
   * slot once its probe answers (the slots bound probes in flight, not the commits behind them);
   * while more than `maxRecording` results are being recorded, no slot is released.
   */
  const recording = new Set<Promise<void>>();
  const maxRecording = deps.concurrency * 4;

  const pool = createWorkerPool<ProbeDelivery>({
    concurrency: deps.concurrency,
    logger,
    async run(delivery) {
      let releaseSlot: () => void = () => undefined;
      const probed = new Promise<void>((resolve) => {
        releaseSlot = resolve;
      });
      const done = execute(delivery, releaseSlot)
        .then(() => undefined)
        .catch((err: unknown) => logger.error('probe job bookkeeping failed', { err }));
      recording.add(done);
      void done.then(() => recording.delete(done));
      await Promise.race([probed, done]);
      while (recording.size > maxRecording) await Promise.race(recording);
    },
  });

  /** Resolves when no job runs, waits for a worker, or is being recorded. */
  const allSettled = async () => {
    await pool.idle();
    while (recording.size > 0) await Promise.all(recording);
  };

  queue.consume((deliveries) => {
    for (const delivery of deliveries) pool.push(delivery);
  });

  const sweep = async (): Promise<number> => {
    const deleted = await sweepRetention(table, clock.now());
    if (deleted > 0) logger.info('retention sweep deleted expired items', { deleted });
    return deleted;
  };

  const runTick = async (): Promise<number> => {
    const nowMs = clock.now();
    const windowEnd = nowMs + tickMs + lookaheadMs;
    let claimed = 0;
    // Overloaded (due jobs wait for a worker): claim nothing this tick. The checks stay due and
    // are claimed later once each, nextSlot skipping the missed slots, so the backlog stays bounded.
    const saturated = pool.queued > maxWaiting;
    if (saturated) logger.warn('workers saturated; claims deferred', { waiting: pool.queued });
    for (let shard = 0; shard < (saturated ? 0 : deps.dueShards); shard += 1) {
      await generateShard(shard, windowEnd, {
        table,
        nowMs,
        dueShards: deps.dueShards,
        logger,
        // Small pages: each is read and parsed in one stretch of the event loop, which also fires
        // the jobs falling due meanwhile (a page of 100 holds it for a few milliseconds).
        pageSize: TICK_PAGE,
        maxPages: Math.ceil(MAX_CLAIMS_PER_SHARD / TICK_PAGE),
        dispatch: async (claims) => {
          claimed += await commitClaims(table, queue, claims);
        },
      });
    }
    if (nowMs - lastSweepMs >= sweepEveryMs) {
      lastSweepMs = nowMs;
      await sweep().catch((err: unknown) => logger.error('retention sweep failed', { err }));
    }
    return claimed;
  };

  /** One generator pass at a time (a call while one runs joins it), every `tickMs`. */
  const loop = createTickLoop({ clock, timers, tickMs, logger, failure: 'scheduler tick failed', runTick });
  const tick = loop.tick;

  /** Jobs queued before a restart: run those whose next slot is not due yet, delete the rest. */
  const reload = async () => {
    const nowMs = clock.now();
    const { resumed, dropped } = await queue.load((job) => job.body.next_ms > nowMs);
    if (resumed + dropped > 0) logger.info('probe queue reloaded', { resumed, dropped });
  };

  return {
    tick,
    /** The probe job queue (tests enqueue and inspect through it). */
    queue,
    /** Runs one delivered job now (the worker's step; tests feed redeliveries through it). */
    execute: (delivery: ProbeDelivery): Promise<JobStatus> => execute(delivery),
    sweep,

    /** Reloads the queue left from before and starts ticking (the first tick runs at once). */
    async start(): Promise<void> {
      if (started || stopped) return;
      started = true;
      await reload();
      loop.start();
    },

    /** Stops ticking and timers; running jobs get `stopGraceMs` to finish, queued ones stay for the restart. */
    async stop(): Promise<void> {
      stopped = true;
      const ticked = loop.stop();
      queue.close();
      pool.clear();
      await ticked;
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([
        allSettled(),
        new Promise<void>((resolve) => {
          grace = timers.setTimeout(resolve, deps.stopGraceMs ?? 3000);
        }),
      ]);
      if (grace) timers.clearTimeout(grace);
      if (pool.active + recording.size > 0) {
        logger.warn('stopped with probe jobs running; left queued', {
          running: pool.active,
          recording: recording.size,
        });
      }
    },

    /** Jobs waiting for their time, waiting for a worker, and running. */
    stats() {
      return { timed: queue.timed, waiting: pool.queued, running: pool.active, recording: recording.size };
    },
  };
}

export type Scheduler = ReturnType<typeof createScheduler>;
