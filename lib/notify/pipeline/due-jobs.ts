import { delaySecondsFor, type JobInput, MAX_DELAY_SECONDS } from '../../platform/job-queue.ts';
import { rejudgeJobId } from '../items/job-ids.ts';
import type { NotifyJob } from '../jobs.ts';
import { enqueueAll, type NotifyDeps } from './notify-deps.ts';

/**
 * The notify jobs due at a time (repeats, escalations, deferred recoveries, maintenance ends, flap
 * settles, digests) ride the queue's delay, which is at most 15 minutes (MAX_DELAY_SECONDS on SQS
 * and locally): a job due later waits in hops, each enqueued under an id naming the second it lands,
 * so a redelivered hop enqueues the same next one.
 */

type DueJob = Extract<NotifyJob, { due_ms: number }>;

/** `body` enqueued under `id`, delayed until it is due (or for the longest delay, one hop). */
export function delayedJob(body: DueJob, nowMs: number, id: string): JobInput<NotifyJob> {
  return { id, body, delaySeconds: delaySecondsFor(body.due_ms, nowMs) };
}

/** Not yet due at `nowMs`: enqueues the next hop (id `<baseId>:hop:<second it lands>`) and answers true. */
export async function waitedAnotherHop(
  deps: NotifyDeps,
  body: DueJob,
  baseId: string,
  nowMs: number,
): Promise<boolean> {
  if (body.due_ms <= nowMs) return false;
  const landsMs = Math.min(body.due_ms, nowMs + MAX_DELAY_SECONDS * 1000);
  await enqueueAll(deps, [delayedJob(body, nowMs, `${baseId}:hop:${Math.ceil(landsMs / 1000)}`)]);
  return true;
}

/**
 * The look at an entity's truth once the hold `by` ends at `dueMs` (rejudge.ts handles it; the
 * holds that end, flapping and also-failing among them, enqueue it, so it lives here with the
 * other due jobs rather than beside its handler).
 */
export function rejudgeJob(
  target: { tenant_id: string; entity_id: string },
  dueMs: number,
  by: string,
  nowMs: number,
): JobInput<NotifyJob> {
  const body: DueJob = { kind: 'rejudge', ...target, due_ms: dueMs, by };
  return delayedJob(body, nowMs, rejudgeJobId(target.entity_id, dueMs));
}
