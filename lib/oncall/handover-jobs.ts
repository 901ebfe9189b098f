import * as z from 'zod';
import { delaySecondsFor, type JobInput, type JobQueue, MAX_DELAY_SECONDS } from '../platform/job-queue.ts';
import type { Logger } from '../platform/logger.ts';
import type { Change, ChangeConsumer } from '../store/change-feed.ts';
import { HANDOFF_HORIZON_MS, nextHandoffTime } from './handoffs.ts';
import { type ScheduleRecord, scheduleOfImage } from './schedule-items.ts';

/**
 * The handover chain of a schedule (issue 55 item 6, docs/on-call.md "Handover"): one `handover`
 * job on the notify queue per coming handoff of the schedule's final shifts, delayed to it in hops
 * of at most one queue delay (id `hov:<schedule id>:v<version>:<handoff second>`, a hop
 * `…:hop:<lands second>`). A schedule's write on the change feed starts the chain of that version
 * from the write; each job, once due, enqueues the next handoff while the schedule is still that
 * version (a later write started a chain of its own), then tells the outgoing and incoming people
 * (lib/handover). A deleted schedule ends its chain: the job finds nothing. When no handoff comes
 * within HANDOFF_HORIZON_MS the job is a look-ahead that tells nobody and looks again from there.
 */

/** The item types whose changes the consumer reads (lib/events' STREAM_ENTITIES lists them). */
export const HANDOVER_STREAM_ENTITIES = ['oncall_schedule'] as const;

export const handoverJobSchema = z.object({
  kind: z.literal('handover'),
  tenant_id: z.string(),
  schedule_id: z.string(),
  /** The schedule's version that scheduled it: only that version's chain goes on. */
  version: z.number().int(),
  /** The handoff (or the look-ahead): the job waits for it. */
  due_ms: z.number().int(),
});
export type HandoverJob = z.infer<typeof handoverJobSchema>;

/** The queue the jobs go to (the notify queue, whose job union includes them). */
export type HandoverJobQueue = Pick<JobQueue<HandoverJob>, 'enqueue'>;

const second = (ms: number) => Math.floor(ms / 1000);

/** The chain's job of this version of `schedule` for its first handoff after `afterMs`. */
export function nextHandoverJob(
  schedule: Pick<ScheduleRecord, 'tenant_id' | 'id' | 'version' | 'layers' | 'overrides' | 'time_zone'>,
  afterMs: number,
  nowMs: number,
): JobInput<HandoverJob> {
  const due = nextHandoffTime(schedule, afterMs) ?? afterMs + HANDOFF_HORIZON_MS;
  return handoverHop(
    {
      kind: 'handover',
      tenant_id: schedule.tenant_id,
      schedule_id: schedule.id,
      version: schedule.version,
      due_ms: due,
    },
    nowMs,
  );
}

/** A handover job, delayed towards its moment: one queue delay at most, each hop an id of its own. */
export function handoverHop(body: HandoverJob, nowMs: number): JobInput<HandoverJob> {
  const id = `hov:${body.schedule_id}:v${body.version}:${second(body.due_ms)}`;
  const landsMs = Math.min(body.due_ms, nowMs + MAX_DELAY_SECONDS * 1000);
  return {
    id: landsMs < body.due_ms ? `${id}:hop:${Math.ceil(landsMs / 1000)}` : id,
    body,
    delaySeconds: delaySecondsFor(landsMs, nowMs),
  };
}

/** A schedule's write that starts a chain: a new schedule or a new version of one (never a delete). */
function jobOf(change: Change, nowMs: number): JobInput<HandoverJob> | undefined {
  if (change.eventName === 'REMOVE') return undefined;
  const after = scheduleOfImage(change.newImage);
  if (!after) return undefined;
  const before = scheduleOfImage(change.oldImage);
  if (before && before.version === after.version) return undefined;
  return nextHandoverJob(after, Date.parse(after.updated_at), nowMs);
}

/** Enqueues the first handover job of each schedule written; an enqueue that fails throws (the feed redelivers). */
export function createHandoverConsumer(deps: {
  queue: HandoverJobQueue;
  logger: Logger;
  now: () => number;
}): ChangeConsumer {
  return async (changes) => {
    const nowMs = deps.now();
    const jobs = changes.flatMap((change) => jobOf(change, nowMs) ?? []);
    if (jobs.length === 0) return;
    const { failed } = await deps.queue.enqueue(jobs);
    if (failed.length > 0) {
      deps.logger.warn('handover jobs not enqueued; the feed redelivers them', { jobs: failed.length });
      throw new Error(`${failed.length} handover job(s) could not be enqueued`);
    }
  };
}
