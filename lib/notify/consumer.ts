import { parseTransition, stateChangeEventOf, TRANSITION_ENTITY } from '../checks/results.ts';
import type { JobInput, JobQueue } from '../platform/job-queue.ts';
import type { Logger } from '../platform/logger.ts';
import type { Change, ChangeConsumer } from '../store/change-feed.ts';
import type { Table } from '../store/table.ts';
import type { NotifyJob } from './jobs.ts';

export { ACKNOWLEDGE_STREAM, createAcknowledgeConsumer } from './pipeline/acknowledge.ts';

import { eventJobId } from './items/job-ids.ts';
import { alsoFailingJob } from './pipeline/also-failing-job.ts';
import { passedThroughDegraded } from './pipeline/slot-coalesce.ts';

/**
 * The first step of the notification flow: every new entity transition in the change feed becomes
 * an `event` job on the notify queue, and every check transition into failing an `also_failing` job. The job id is the transition's, so a redelivered change
 * enqueues the same job again (the local queue keeps one, the notifier's records dedupe on SQS).
 */

/** The `also_failing` job of a new check transition into failing, or undefined for any other change. */
function alsoFailingOf(change: Change, moved: ReadonlySet<string>): JobInput<NotifyJob> | undefined {
  const item = change.newImage;
  if (item?.entity !== TRANSITION_ENTITY || item.kind !== 'check') return undefined;
  const t = parseTransition(item);
  return moved.has(`${t.entity_id}|${t.created_at}`) ? undefined : alsoFailingJob(t);
}

/** A change-feed consumer that enqueues an `event` job per new entity transition; enqueue failures throw. */
export function createNotifyConsumer(deps: {
  queue: JobQueue<NotifyJob>;
  logger: Logger;
  /** Reads the entity to leave out a degraded step overtaken by down in its slot (slot-coalesce.ts). */
  table?: Table | undefined;
}): ChangeConsumer {
  return async (changes) => {
    const jobs: JobInput<NotifyJob>[] = [];
    // A check change that moved its entity is that entity's own alert, not "also failing": the two
    // transitions are written in one transaction at one time, and usually reach this batch together
    // (when they do not, the also_failing job reads the entity and finds it so).
    const moved = new Set(
      changes.flatMap((change) => {
        const event = stateChangeEventOf(change);
        return event ? [`${event.entity_id}|${event.timestamp}`] : [];
      }),
    );
    for (const change of changes) {
      const event = stateChangeEventOf(change);
      // A check moving into failing may be "also failing" on an entity already down (also-failing-alert.ts).
      const also = !event && change.eventName === 'INSERT' ? alsoFailingOf(change, moved) : undefined;
      if (also) jobs.push(also);
      if (!event) continue;
      if (
        deps.table &&
        change.newImage &&
        (await passedThroughDegraded(deps.table, parseTransition(change.newImage)))
      ) {
        deps.logger.info('degraded step overtaken by down in its slot: not alerted', {
          transition: event.transition_id,
        });
        continue;
      }
      jobs.push({ id: eventJobId(event.transition_id), body: { kind: 'event', event } });
    }
    if (jobs.length === 0) return;
    const { failed } = await deps.queue.enqueue(jobs);
    if (failed.length > 0) {
      deps.logger.warn('notify events not enqueued; the feed redelivers them', { jobs: failed.length });
      throw new Error(`${failed.length} notify event job(s) could not be enqueued`);
    }
  };
}
