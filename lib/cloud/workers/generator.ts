import type { ActionJob } from '../../actions/jobs.ts';
import { claimDueActions, enqueueClaimed } from '../../actions/schedule.ts';
import { probeJobId } from '../../checks/probe-job.ts';
import {
  cellJobId,
  type DueCellSlot,
  type DueClaim,
  generateCellShard,
  generateShard,
} from '../../checks/probing.ts';
import { type Clock, isoTime } from '../../platform/clock.ts';
import { delaySecondsFor, type JobInput, type JobQueue } from '../../platform/job-queue.ts';
import type { Logger } from '../../platform/logger.ts';
import { ConditionFailedError, type Table } from '../../store/table.ts';
import { mapBounded } from '../queues/bounded.ts';
import type { WorkerJob } from './worker.ts';

/** One window per minute, plus a lookahead so slots just past it are not late when a run starts late. */
export const WINDOW_MS = 60_000;
export const LOOKAHEAD_MS = 10_000;
const SHARD_CONCURRENCY = 8;
const CLAIM_CONCURRENCY = 25;

export interface GeneratorDeps {
  table: Table;
  /** The probe job queue (SQS in the cloud): cells' slots and push checks' deadlines. */
  queue: JobQueue<WorkerJob>;
  clock: Clock;
  dueShards: number;
  logger: Logger;
  /** The action queue the run jobs of due scheduled actions go to; undefined: no scheduled actions are claimed. */
  actionQueue?: JobQueue<ActionJob>;
}

/** What one run did; every due check is either claimed, already claimed, unsent or a claim error. */
export interface GeneratorCounts {
  window_start: string;
  window_end: string;
  /** Due checks found (one claim each). */
  due: number;
  /** Jobs the queue accepted (a claim has one per slot in the window). */
  enqueued: number;
  claimed: number;
  /** Claims that lost their condition: another run claimed first (its message is a harmless duplicate). */
  already_claimed: number;
  /** Checks left unclaimed because the queue did not take their jobs; the next run finds them again. */
  unsent: number;
  /** Claims that failed otherwise; the next run finds those checks again and re-sends the same slots. */
  claim_errors: number;
  /** Cell slots the queue took (each runs up to 100 pull checks). */
  cell_slots: number;
  /** Shards whose cell lease did not move (a job was refused): the next run sends their window again. */
  cell_shards_unleased: number;
  /** Scheduled action slots this run claimed (one run job each). */
  actions_claimed: number;
  /** Their run jobs the action queue accepted; a claimed slot whose job was not accepted is skipped. */
  actions_enqueued: number;
  /** Shards whose checks or scheduled actions failed; the others ran. */
  failed_shards: number;
}

/** A run in which some shards failed; the others ran, and `counts` says what they did. */
export class GeneratorRunError extends Error {
  override name = 'GeneratorRunError';
  readonly counts: GeneratorCounts;
  constructor(counts: GeneratorCounts, options?: { cause?: unknown }) {
    super(`${counts.failed_shards} of the due index shards failed`, options);
    this.counts = counts;
  }
}

/** The queue jobs of a claim (one per slot), each delayed to its slot. */
function jobsOf(claim: DueClaim, sentAtMs: number): JobInput<WorkerJob>[] {
  return [{ job: claim.job, dueMs: claim.dueMs }, ...(claim.later ?? [])].map((j) => ({
    id: probeJobId(j.job),
    body: j.job,
    delaySeconds: delaySecondsFor(j.dueMs, sentAtMs),
  }));
}

/**
 * Claims the scheduled actions of `shard` whose slot falls before the window's end and sends
 * their run jobs delayed to the slot, so a schedule fires on time rather than at the next minute.
 * With intervals of at least 60 s a window holds one slot per action; slots missed while nothing
 * ran (downtime) are skipped by the claim, so the first run after it is the only late one.
 */
async function runScheduledActions(
  deps: GeneratorDeps,
  queue: JobQueue<ActionJob>,
  shard: number,
  untilMs: number,
  counts: GeneratorCounts,
): Promise<void> {
  const claimed = await claimDueActions(
    { table: deps.table, logger: deps.logger, dueShards: deps.dueShards },
    untilMs,
    shard,
  );
  counts.actions_claimed += claimed.length;
  const sentAt = deps.clock.now();
  const delayed = claimed.map((job) => ({
    ...job,
    delaySeconds: job.body.slot ? delaySecondsFor(Date.parse(job.body.slot), sentAt) : 0,
  }));
  counts.actions_enqueued += await enqueueClaimed({ queue, logger: deps.logger }, delayed);
}

/**
 * The cloud generator. Each run reads every shard of the due index for one minute window, sends
 * the jobs to the queue FIRST (delayed to their slot) and only then claims the checks whose jobs
 * it accepted: a crash or a queue failure leaves a check due, never claimed-but-not-enqueued.
 */
export function createGenerator(deps: GeneratorDeps) {
  return {
    /** Runs the window over `range` (default: every shard); several ranges split a large fleet's minute. */
    async run(windowStartMs: number, range?: ShardRange): Promise<GeneratorCounts> {
      const windowEndMs = windowStartMs + WINDOW_MS + LOOKAHEAD_MS;
      const nowMs = deps.clock.now();
      const counts: GeneratorCounts = {
        window_start: isoTime(windowStartMs),
        window_end: isoTime(windowEndMs),
        due: 0,
        enqueued: 0,
        claimed: 0,
        already_claimed: 0,
        unsent: 0,
        claim_errors: 0,
        cell_slots: 0,
        cell_shards_unleased: 0,
        actions_claimed: 0,
        actions_enqueued: 0,
        failed_shards: 0,
      };

      const sendCells = async (slots: DueCellSlot[]): Promise<number> => {
        const sentAt = deps.clock.now();
        const jobs = slots.map((slot) => ({
          id: cellJobId(slot.job),
          body: slot.job,
          delaySeconds: delaySecondsFor(slot.dueMs, sentAt),
        }));
        return (await deps.queue.enqueue(jobs)).failed.length;
      };

      const dispatch = async (claims: DueClaim[]): Promise<void> => {
        const sentAt = deps.clock.now();
        const plans = claims.map((claim) => ({ claim, jobs: jobsOf(claim, sentAt) }));
        const all = plans.flatMap((p) => p.jobs);
        const unsent = new Set((await deps.queue.enqueue(all)).failed);
        const sent = plans.filter((p) => p.jobs.every((job) => !unsent.has(job.id)));
        counts.due += claims.length;
        counts.enqueued += all.length - unsent.size;
        counts.unsent += claims.length - sent.length;
        await mapBounded(sent, CLAIM_CONCURRENCY, async ({ claim }) => {
          try {
            await deps.table.transact([claim.claim]);
            counts.claimed += 1;
          } catch (error) {
            if (error instanceof ConditionFailedError) counts.already_claimed += 1;
            else {
              counts.claim_errors += 1;
              deps.logger.warn('claim failed', { check_id: claim.job.check_id, error });
            }
          }
        });
      };

      const errors: unknown[] = [];
      const from = Math.max(0, range?.from ?? 0);
      const to = Math.min(deps.dueShards, range?.to ?? deps.dueShards);
      const shards = Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);
      await mapBounded(shards, SHARD_CONCURRENCY, async (shard) => {
        let failed = false;
        try {
          await generateShard(shard, windowEndMs, {
            table: deps.table,
            nowMs,
            dueShards: deps.dueShards,
            logger: deps.logger,
            dispatch,
            allSlotsInWindow: true,
          });
          const cells = await generateCellShard(shard, windowEndMs, {
            table: deps.table,
            nowMs,
            dispatch: sendCells,
          });
          counts.cell_slots += cells.sent;
          if (!cells.leased) counts.cell_shards_unleased += 1;
        } catch (error) {
          failed = true;
          errors.push(error);
          deps.logger.error('due index shard failed', { shard, error });
        }
        if (deps.actionQueue) {
          try {
            await runScheduledActions(deps, deps.actionQueue, shard, windowStartMs + WINDOW_MS - 1, counts);
          } catch (error) {
            failed = true;
            errors.push(error);
            deps.logger.error('action due index shard failed', { shard, error });
          }
        }
        if (failed) counts.failed_shards += 1;
      });
      deps.logger.info('generator run', { ...counts });
      if (errors.length > 0) throw new GeneratorRunError(counts, { cause: new AggregateError(errors) });
      return counts;
    },
  };
}

export type Generator = ReturnType<typeof createGenerator>;

/** A range of due shards [from, to): one scheduler target's share of the minute (infra/capacity.ts). */
export interface ShardRange {
  from: number;
  to: number;
}
