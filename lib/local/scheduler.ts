import { ackCommitted, type JobRunnerDeps, type ProbeJobOutcome, runProbeJob } from '../checks/probe-job.ts';
import type { CellRunner } from '../checks/probing.ts';
import { generateCellShard, generateShard } from '../checks/probing.ts';
import type { Clock } from '../platform/clock.ts';
import type { ReceivedJob } from '../platform/job-queue.ts';
import type { Logger } from '../platform/logger.ts';
import type { SqliteTable } from '../sqlite/sqlite-table.ts';
import type { Table } from '../store/table.ts';
import { createCellJobs } from './cell-jobs.ts';
import { reapplyQueuedCellSlots } from './cell-recovery.ts';
import {
  commitClaims,
  createProbeQueue,
  decideLaterOn,
  type LocalCellBody,
  type LocalCheckBody,
  type LocalProbeBody,
  probeSoonOn,
  queueCellSlots,
} from './probe-queue.ts';
import { callHook, createProbeSlots, type JobStart } from './probe-slots.ts';
import { createRetentionSweeper } from './retention-sweep.ts';
import { createTickLoop } from './tick-loop.ts';
import { systemTimers, type Timers } from './timer-heap.ts';
import { createWorkerPool } from './worker-pool.ts';

export type { JobStart } from './probe-slots.ts';

export interface SchedulerOptions {
  /** Generator tick period; default 1 s. */
  tickMs?: number;
  /** How far past the next tick a tick claims, so slow ticks never make a job late; default 500 ms. */
  lookaheadMs?: number;
  /** Retention sweep period (more often while it is behind, retention-sweep.ts); default 60 s. */
  sweepEveryMs?: number;
  /** How long stop() waits for running jobs before abandoning them (their queue items stay); default 3 s. */
  stopGraceMs?: number;
  /** Runs of a job that throws before it becomes a dead letter; default 4 (retried after 1 s, 2 s, 4 s). */
  maxAttempts?: number;
  /** Reported when a job starts; for a cell job, when each member's probe got its slot (dueMs: the slot). */
  onJobStart?: (start: JobStart) => void;
  /** Reported when a probe actually began (on a probe thread, a moment after its job started). */
  onProbeStart?: (start: JobStart) => void;
  timers?: Timers;
}

export interface SchedulerDeps extends SchedulerOptions {
  table: Table & Pick<SqliteTable, 'sweepExpired'>;
  jobRunner: JobRunnerDeps;
  /** Runs the cells' slots (pull checks). */
  cells: CellRunner;
  clock: Clock;
  logger: Logger;
  dueShards: number;
  /** Probes in flight at once (config.workerConcurrency), per-check jobs' and cell members' together. */
  concurrency: number;
  /** Run with each periodic retention sweep: the expired artifacts' files (lib/checks/artifacts). */
  sweepArtifacts?: (nowMs: number) => Promise<number>;
}

/** Due checks read per generator query on a tick, and claimed per shard per tick at most. */
const TICK_PAGE = 100;
const MAX_CLAIMS_PER_SHARD = 100_000;

/** What became of one run of a queued job. */
export type JobStatus = ProbeJobOutcome['status'] | 'retry' | 'dead' | 'abandoned';

type ProbeDelivery = ReceivedJob<LocalProbeBody>;
type CheckDelivery = ReceivedJob<LocalCheckBody>;

const isCellDelivery = (d: ProbeDelivery): d is ReceivedJob<LocalCellBody> => d.body.kind === 'cell';

/**
 * The local scheduler: a 1 s tick claims due checks into the probe job queue (see probe-queue.ts),
 * and sends each shard's cell slots there (the cell generator, the cloud's, on its shard lease),
 * whose timer heap hands each job over at its due time: a per-check job to a bounded worker pool
 * that runs it, committing its result and its ack together; a cell job to the cell runner
 * (cell-jobs.ts). Both bound their probes by the same probe slots. A job that throws is failed on
 * the queue (retried after 1 s, 2 s, 4 s, then a dead letter). A tick also sweeps expired items
 * every `sweepEveryMs`.
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
  // The bound on probes in flight: pool slots alone would bound jobs, and a cell job probes up to 100.
  const probeSlots = createProbeSlots(deps.concurrency);
  const jobRunner: JobRunnerDeps = {
    ...deps.jobRunner,
    prober: probeSlots.bounded(deps.jobRunner.prober),
    decideLater: decideLaterOn(queue),
  };
  let started = false;
  let stopped = false;
  const cellJobs = createCellJobs({
    cells: deps.cells,
    queue,
    slots: probeSlots,
    prober: deps.jobRunner.prober,
    clock,
    logger,
    ...(deps.onJobStart ? { onJobStart: deps.onJobStart } : {}),
    ...(deps.onProbeStart ? { onProbeStart: deps.onProbeStart } : {}),
    stopped: () => stopped,
  });
  const sweeper = createRetentionSweeper({ table, logger, everyMs: sweepEveryMs, also: deps.sweepArtifacts });

  const executeCheck = async (delivery: CheckDelivery, onProbed?: () => void): Promise<JobStatus> => {
    const { next_ms: _next, ...job } = delivery.body;
    const dueMs = job.slot_ms;
    callHook(deps.onJobStart, { dueMs, startedMs: clock.now(), job }, logger, 'onJobStart');
    try {
      const onProbeStart = deps.onProbeStart;
      const outcome = await runProbeJob(job, jobRunner, {
        alsoCommit: queue.ackOp(delivery),
        ...(onProbed ? { onProbed } : {}),
        ...(onProbeStart
          ? {
              onProbeStart: (startedMs: number) =>
                callHook(onProbeStart, { dueMs, startedMs, job }, logger, 'onProbeStart'),
            }
          : {}),
      });
      // A recorded result acked the job in its own transaction; anything else acks it here.
      if (ackCommitted(outcome)) queue.acked(delivery);
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

  const execute = (delivery: ProbeDelivery, onProbed?: () => void): Promise<JobStatus> =>
    isCellDelivery(delivery) ? cellJobs.execute(delivery) : executeCheck(delivery as CheckDelivery, onProbed);

  /**
   * Jobs whose probe has answered and whose result is being recorded. A job leaves its worker
   * slot once its probe answers (the slots bound probes in flight, not the commits behind them);
   * while more than `maxRecording` results are being recorded, no slot is released.
   */
  const recording = new Set<Promise<void>>();
  const maxRecording = deps.concurrency * 4;

  const pool = createWorkerPool<CheckDelivery>({
    concurrency: deps.concurrency,
    logger,
    async run(delivery) {
      let releaseSlot: () => void = () => undefined;
      const probed = new Promise<void>((resolve) => {
        releaseSlot = resolve;
      });
      const done = executeCheck(delivery, releaseSlot)
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
    await cellJobs.settled();
  };

  queue.consume((deliveries) => {
    for (const delivery of deliveries) {
      if (isCellDelivery(delivery)) void cellJobs.execute(delivery);
      else pool.push(delivery as CheckDelivery);
    }
  });

  const sweep = (): Promise<number> => sweeper.sweep(clock.now());

  const runTick = async (): Promise<number> => {
    const nowMs = clock.now();
    const windowEnd = nowMs + tickMs + lookaheadMs;
    let claimed = 0;
    // Overloaded (due jobs wait for a worker): claim nothing this tick. The checks stay due and
    // are claimed later once each, nextSlot skipping the missed slots, so the backlog stays bounded.
    // Cells too: their shard's lease stays, and the next tick queues each cell's current slot once.
    const saturated = pool.queued + probeSlots.waiting > maxWaiting;
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
      await generateCellShard(shard, windowEnd, {
        table,
        nowMs,
        dispatch: (slots) => queueCellSlots(queue, slots, nowMs),
      });
    }
    await sweeper.onTick(nowMs).catch((err: unknown) => logger.error('retention sweep failed', { err }));
    return claimed;
  };

  /** One generator pass at a time (a call while one runs joins it), every `tickMs`. */
  const loop = createTickLoop({ clock, timers, tickMs, logger, failure: 'scheduler tick failed', runTick });
  const tick = loop.tick;

  /**
   * Jobs queued before a restart: first the cell slots a crash left with results but without their
   * state moves are applied (cell-recovery.ts); then run those whose next slot (their check's or
   * cell's) is not due yet, delete the rest. The shards' leases keep the first ticks from queueing those slots again.
   */
  const reload = async () => {
    await reapplyQueuedCellSlots({ table, cells: deps.cells, clock, logger });
    const nowMs = clock.now();
    const { resumed, dropped } = await queue.load((job) => job.body.next_ms > nowMs);
    if (resumed + dropped > 0) logger.info('probe queue reloaded', { resumed, dropped });
  };

  return {
    tick,
    /** The probe job queue (tests enqueue and inspect through it). */
    queue,
    /** Queues a check's one-off probe now (the app's `probeSoon`). */
    probeSoon: probeSoonOn(queue, clock),
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
      if (pool.active + recording.size + cellJobs.running > 0) {
        logger.warn('stopped with probe jobs running; left queued', {
          running: pool.active,
          recording: recording.size,
          cells: cellJobs.running,
        });
      }
    },

    /** Jobs waiting for their time; jobs and probes waiting for a worker; jobs running (cell jobs too). */
    stats() {
      return {
        timed: queue.timed,
        waiting: pool.queued + probeSlots.waiting,
        running: pool.active + cellJobs.running,
        recording: recording.size,
      };
    },
  };
}

export type Scheduler = ReturnType<typeof createScheduler>;
