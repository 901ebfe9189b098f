import { nextSlot } from '../domain/schedules.ts';
import { isoTime } from '../platform/clock.ts';
import type { JobInput, JobQueue } from '../platform/job-queue.ts';
import type { Logger } from '../platform/logger.ts';
import { ConditionFailedError, type Table, type UpdateOp, type WriteOp } from '../store/table.ts';
import { type ActionRecord, dueActionsPage, scheduleClaimOp } from './items/action-items.ts';
import { scheduleExecutionId } from './job-ids.ts';
import { type ActionJob, runJob } from './jobs.ts';

/**
 * Schedule triggers through the actions' due index (gsi2 `ACTDUE#<shard>`, sort key
 * `<next_run_at>#<id>`), claimed like the checks' slots: a claim is one conditional update
 * (`version` unchanged) that moves next_run_at to the first slot AFTER now, so the slots missed
 * while nothing claimed (downtime) are skipped, not replayed in a burst, and of two claimers of
 * the same slot only one wins. Each won claim is one `run` job whose execution id is
 * deterministic from (action, slot): a duplicate job finds its execution stored.
 *
 * Locally a claim commits in the same transaction as its job's put on the SQLite queue
 * (commitScheduleClaims). In the cloud the generator claims first, then sends the jobs to SQS
 * (claimDueActions, then enqueueClaimed): a send that fails after its claim loses that one slot.
 */

/** A due slot of a scheduled action: the update claiming it and the run job it becomes. */
export interface ScheduleClaim {
  claim: UpdateOp;
  job: JobInput<ActionJob> & { body: Extract<ActionJob, { kind: 'run' }> };
  slotMs: number;
}

/** Due actions read per query, and pages read per shard per pass (the rest wait for the next pass). */
const PAGE = 100;
const MAX_PAGES = 10;

/** The claim of a due action's slot at `nowMs`, or undefined when the item is not a scheduled action. */
function scheduleClaimFor(action: ActionRecord, nowMs: number, dueShards: number): ScheduleClaim | undefined {
  if (action.trigger_type !== 'schedule' || !action.interval_seconds || !action.next_run_at) return undefined;
  const slotMs = Date.parse(action.next_run_at);
  const next = isoTime(nextSlot(slotMs, action.interval_seconds, nowMs));
  const executionId = scheduleExecutionId(action.id, slotMs);
  return {
    slotMs,
    // Holds only while nobody else claimed (or edited) the action since it was read.
    claim: scheduleClaimOp(action, next, { dueShards }, isoTime(nowMs)),
    job: runJob(action, executionId, { trigger: 'schedule', slot: action.next_run_at }),
  };
}

interface ClaimDeps {
  table: Table;
  logger: Logger;
  /** The due index's shard count (config.dueShards). */
  dueShards: number;
  /** Due actions read per query (default 100). */
  pageSize?: number;
  /** Pages read per call (default 10). */
  maxPages?: number;
}

/** Reads one shard of the due index (next_run_at <= now) page by page, handing each page's claims to `onPage`. */
async function forEachDuePage(
  deps: ClaimDeps,
  nowMs: number,
  shard: number,
  onPage: (claims: ScheduleClaim[]) => Promise<void>,
): Promise<void> {
  let cursor: string | undefined;
  const maxPages = deps.maxPages ?? MAX_PAGES;
  for (let page = 0; page < maxPages; page += 1) {
    const result = await dueActionsPage(deps.table, shard, nowMs, { limit: deps.pageSize ?? PAGE, cursor });
    const claims = result.actions.flatMap((action) => scheduleClaimFor(action, nowMs, deps.dueShards) ?? []);
    if (claims.length > 0) await onPage(claims);
    cursor = result.cursor;
    if (!cursor) return;
  }
  deps.logger.warn('action due index shard not exhausted within the page budget', { shard });
}

/**
 * Claims the scheduled actions of `shard` due at `nowMs`, each with its own conditional update,
 * and returns the run jobs of the claims this caller won (lost ones are another claimer's). The
 * caller sends them with enqueueClaimed; until then a crash loses those slots, never repeats one.
 */
export async function claimDueActions(
  deps: ClaimDeps,
  nowMs: number,
  shard: number,
): Promise<ScheduleClaim['job'][]> {
  const won: ScheduleClaim['job'][] = [];
  await forEachDuePage(deps, nowMs, shard, async (claims) => {
    const results = await Promise.all(
      claims.map(async ({ claim, job }) => {
        try {
          await deps.table.transact([claim]);
          return job;
        } catch (err) {
          if (err instanceof ConditionFailedError) return undefined;
          throw err;
        }
      }),
    );
    for (const job of results) if (job) won.push(job);
  });
  return won;
}

/** Sends claimed run jobs to the action queue; returns how many were sent and logs the slots lost. */
export async function enqueueClaimed(
  deps: { queue: JobQueue<ActionJob>; logger: Logger },
  jobs: ScheduleClaim['job'][],
): Promise<number> {
  if (jobs.length === 0) return 0;
  const { failed } = await deps.queue.enqueue(jobs);
  if (failed.length > 0)
    deps.logger.error('scheduled action runs not enqueued; their slots are skipped', { jobs: failed });
  return jobs.length - failed.length;
}

/** A queue that adds its job puts to the caller's transaction (the local SQLite queue). */
export interface TransactionalQueue {
  enqueueOps(jobs: { id: string; body: ActionJob; visibleAtMs: number }[]): {
    ops: WriteOp[];
    committed(): void;
  };
}

/**
 * Claims the due scheduled actions of `shard` with their run jobs' puts, each pair in one
 * transaction, so a claimed slot always has its job; returns how many claims this caller won.
 */
export async function commitScheduleClaims(
  deps: ClaimDeps & { queue: TransactionalQueue },
  nowMs: number,
  shard: number,
): Promise<number> {
  let won = 0;
  await forEachDuePage(deps, nowMs, shard, async (claims) => {
    const results = await Promise.all(
      claims.map(async ({ claim, job }) => {
        const put = deps.queue.enqueueOps([{ id: job.id, body: job.body, visibleAtMs: nowMs }]);
        try {
          await deps.table.transact([claim, ...put.ops]);
        } catch (err) {
          if (err instanceof ConditionFailedError) return 0;
          throw err;
        }
        put.committed();
        return 1;
      }),
    );
    won += results.reduce<number>((sum, n) => sum + n, 0);
  });
  return won;
}
