import { stateChangeEventOf } from '../notify/consumer.ts';
import type { JobInput, JobQueue } from '../platform/job-queue.ts';
import type { Logger } from '../platform/logger.ts';
import type { ChangeConsumer } from '../store/change-feed.ts';
import { stateChangeJobId } from './job-ids.ts';
import type { ActionJob } from './jobs.ts';

/**
 * The state_change trigger's first step: every new entity transition in the change feed becomes a
 * `state_change` job on the action queue, keyed by the transition, so a redelivered change
 * enqueues the same job (and the worker's deterministic execution ids dedupe what follows).
 */

/** A change-feed consumer that enqueues a `state_change` job per new entity transition; enqueue failures throw. */
export function createActionTriggerConsumer(deps: {
  queue: JobQueue<ActionJob>;
  logger: Logger;
}): ChangeConsumer {
  return async (changes) => {
    const jobs: JobInput<ActionJob>[] = [];
    for (const change of changes) {
      const event = stateChangeEventOf(change);
      if (event)
        jobs.push({ id: stateChangeJobId(event.transition_id), body: { kind: 'state_change', event } });
    }
    if (jobs.length === 0) return;
    const { failed } = await deps.queue.enqueue(jobs);
    if (failed.length > 0) {
      deps.logger.warn('action triggers not enqueued; the feed redelivers them', { jobs: failed.length });
      throw new Error(`${failed.length} action trigger job(s) could not be enqueued`);
    }
  };
}
