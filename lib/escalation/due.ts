import type { NotifyJob } from '../notify/jobs.ts';
import { delaySecondsFor, type JobInput, type JobQueue, MAX_DELAY_SECONDS } from '../platform/job-queue.ts';

/**
 * The paging jobs wait for their time on the notify queue as repeats and escalations do
 * (lib/notify's due jobs): a job due later than the longest queue delay (15 minutes) waits in
 * hops, each enqueued under an id naming the second it lands, so a redelivered hop enqueues the same next one.
 */

type PagingDueJob = Extract<NotifyJob, { kind: 'climb' | 'page_contact' }>;

/** `body` enqueued under `id`, delayed until it is due (or for the longest delay, one hop). */
export function dueJob(body: PagingDueJob, nowMs: number, id: string): JobInput<NotifyJob> {
  return { id, body, delaySeconds: delaySecondsFor(body.due_ms, nowMs) };
}

/** Enqueues jobs; throws when any could not be (the caller's job is then retried: nothing is lost). */
export async function enqueueOrThrow(queue: JobQueue<NotifyJob>, jobs: JobInput<NotifyJob>[]): Promise<void> {
  if (jobs.length === 0) return;
  const { failed } = await queue.enqueue(jobs);
  if (failed.length > 0) throw new Error(`${failed.length} paging job(s) could not be enqueued`);
}

/** Not yet due at `nowMs`: enqueues the next hop (id `<baseId>:hop:<second it lands>`) and answers true. */
export async function waitedHop(
  queue: JobQueue<NotifyJob>,
  body: PagingDueJob,
  baseId: string,
  nowMs: number,
): Promise<boolean> {
  if (body.due_ms <= nowMs) return false;
  const landsMs = Math.min(body.due_ms, nowMs + MAX_DELAY_SECONDS * 1000);
  await enqueueOrThrow(queue, [dueJob(body, nowMs, `${baseId}:hop:${Math.ceil(landsMs / 1000)}`)]);
  return true;
}
