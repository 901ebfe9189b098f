import * as z from 'zod';
import { type ProbeJob, probeJobId, probeJobSchema } from '../checks/probe-job.ts';
import type { DueCellSlot, DueClaim } from '../checks/probing.ts';
import { type CellJob, cellJobId, cellJobSchema } from '../checks/probing.ts';
import { chunks } from '../platform/chunks.ts';
import type { Clock } from '../platform/clock.ts';
import type { Logger } from '../platform/logger.ts';
import { ConditionFailedError, MAX_TRANSACTION_OPS, type Table } from '../store/table.ts';
import { createSqliteJobQueue, type SqliteJobQueue } from './sqlite-job-queue.ts';
import type { Timers } from './timer-heap.ts';

/**
 * Probe jobs on the local job queue (`QUEUE#probe`): each claim of a due check is committed in
 * the same transaction as its job's put, and the job's result in the same transaction as its ack
 * (runProbeJob's `alsoCommit`), so a job is never lost between the claim and the result, nor run
 * twice after it. Cell jobs (a cell's slot: its pull checks) share the queue: queued by the cell
 * generator before it moves its shard's lease, acked after the cell runner stored the slot (a
 * second run of a slot is harmless, see lib/checks/runner/cell-runner.ts).
 */

export const PROBE_QUEUE = 'probe';

/** When the job's check or cell has its next slot due: the job is superseded then. */
const nextMs = { next_ms: z.number().int() };
/** A queued job of one check (a push check's deadline; a located check's slot or its decision). */
const localCheckBodySchema = probeJobSchema.extend(nextMs);
export type LocalCheckBody = z.infer<typeof localCheckBodySchema>;
/** A queued cell slot. */
const localCellBodySchema = cellJobSchema.extend(nextMs);
export type LocalCellBody = z.infer<typeof localCellBodySchema>;
/** What the local probe queue carries (a body keeps its kind: 'probe' | 'deadman' | 'cell'). */
export const localProbeBodySchema = z.union([localCellBodySchema, localCheckBodySchema]);
export type LocalProbeBody = z.infer<typeof localProbeBodySchema>;
export type ProbeQueue = SqliteJobQueue<LocalProbeBody>;

/** The local probe queue over the table. */
export function createProbeQueue(deps: {
  table: Table;
  clock: Clock;
  logger: Logger;
  timers?: Timers;
  maxAttempts?: number;
}): ProbeQueue {
  return createSqliteJobQueue({ ...deps, name: PROBE_QUEUE, schema: localProbeBodySchema });
}

/** The queued form of a claim: its job (id, body) and when it is due (its next slot read from the claim). */
function queuedFromClaim(claim: DueClaim): { id: string; body: LocalCheckBody; visibleAtMs: number } {
  const next = claim.claim.set?.next_run_at;
  const nextMs = typeof next === 'string' ? Date.parse(next) : claim.dueMs;
  // Items store no undefined: the optional attributes of deadman jobs are left out when absent.
  const body: LocalCheckBody = { ...claim.job, next_ms: nextMs };
  if (body.next_run_at_ms === undefined) delete body.next_run_at_ms;
  if (body.last_result_at === undefined) delete body.last_result_at;
  return { id: probeJobId(claim.job), body, visibleAtMs: claim.dueMs };
}

/** Claims per transaction: each is two ops (the claim and the queue put). */
const CLAIMS_PER_TRANSACTION = MAX_TRANSACTION_OPS / 2;

/**
 * Commits claims with their queue puts, each pair in one transaction (chunks of 50 pairs, all
 * submitted at once so they share group commits instead of waiting for one another). A claim
 * whose condition fails lost its slot to another generator: its chunk is retried without the
 * losers, so every winning claim commits, and its job is timed once its chunk commits.
 */
export async function commitClaims(table: Table, queue: ProbeQueue, claims: DueClaim[]): Promise<number> {
  const commitChunk = async (claimsOfChunk: DueClaim[]): Promise<number> => {
    let chunk = claimsOfChunk.map((claim) => ({ claim, queued: queuedFromClaim(claim) }));
    while (chunk.length > 0) {
      const put = queue.enqueueOps(chunk.map(({ queued }) => queued));
      try {
        await table.transact(chunk.flatMap(({ claim }, i) => [claim.claim, ...put.ops.slice(i, i + 1)]));
        put.committed();
        return chunk.length;
      } catch (err) {
        if (!(err instanceof ConditionFailedError)) throw err;
        const lost = new Set(err.failed.map((op) => Math.floor(op / 2)));
        if (lost.size === 0) throw err;
        chunk = chunk.filter((_, i) => !lost.has(i));
      }
    }
    return 0;
  };
  const committed = await Promise.all(chunks(claims, CLAIMS_PER_TRANSACTION).map(commitChunk));
  return committed.reduce((sum, n) => sum + n, 0);
}

/**
 * Queues a cell generator run's slots, each visible at its slot (the cell generator's dispatch).
 * A slot whose cell has a later slot due by `nowMs` is skipped: after a stop or an overload the
 * cell runs its current slot late, once, not a burst of the missed ones (as a claim skips a
 * check's missed slots). A slot queued already (an overlapping run) is not queued again. Answers
 * the slots the queue did not take: none (a failed write throws, and the lease stays).
 */
export async function queueCellSlots(
  queue: ProbeQueue,
  slots: DueCellSlot[],
  nowMs: number,
): Promise<number> {
  const current = slots.filter((slot) => slot.nextMs > nowMs);
  await queue.enqueueAt(
    current.map((slot) => ({
      id: cellJobId(slot.job),
      body: { ...slot.job, next_ms: slot.nextMs },
      visibleAtMs: slot.dueMs,
    })),
  );
  return 0;
}

/** How long a located slot's decision stays queued past its time (a restart runs it late, not never). */
const DECIDE_KEPT_MS = 86_400_000;

/**
 * The job runner's `decideLater` on the local queue: the slot's `decide` job, visible at `atMs`,
 * stored once by its id (`decide:<check>:<slot>`), so a redelivered probe job queues nothing twice.
 */
export function decideLaterOn(queue: ProbeQueue) {
  return async (job: ProbeJob, atMs: number): Promise<void> => {
    const body: LocalCheckBody = { ...job, next_ms: atMs + DECIDE_KEPT_MS };
    if (body.next_run_at_ms === undefined) delete body.next_run_at_ms;
    if (body.last_result_at === undefined) delete body.last_result_at;
    await queue.enqueueAt([{ id: probeJobId(job), body, visibleAtMs: atMs }]);
  };
}

/** How long a one-off probe stays queued past its time (a restart runs it late, not never). */
const ONE_OFF_KEPT_MS = 3_600_000;

/**
 * The check service's `probeSoon` on the local queue: a check's one-off job, visible now, stored
 * once by its id (a cell member's `cell:<cell>:<ms>:<check>`, a located slot's `probe:<check>:<ms>`).
 */
export function probeSoonOn(queue: ProbeQueue, clock: Clock) {
  return async (job: CellJob | ProbeJob): Promise<void> => {
    const nowMs = clock.now();
    const kept = { next_ms: nowMs + ONE_OFF_KEPT_MS };
    const queued =
      job.kind === 'cell'
        ? { id: cellJobId(job), body: { ...job, ...kept }, visibleAtMs: nowMs }
        : { id: probeJobId(job), body: { ...job, ...kept }, visibleAtMs: nowMs };
    await queue.enqueueAt([queued]);
  };
}
