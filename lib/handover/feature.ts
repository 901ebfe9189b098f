import {
  createHandoverConsumer,
  HANDOVER_STREAM_ENTITIES,
  handoverJobSchema,
} from '../oncall/handover-jobs.ts';
import type { Clock } from '../platform/clock.ts';
import { defineFeature, type Job, jobsOf } from '../platform/feature.ts';
import type { JobQueue } from '../platform/job-queue.ts';
import type { Logger } from '../platform/logger.ts';

/**
 * Handover summaries' face in the feature list (issue 55 item 6): a schedule's `handover` jobs on
 * the notify queue, its next handoff waited for in hops and told to the outgoing and incoming
 * people by their first contact method (lib/oncall/handover-jobs.ts chains them; job-host.ts runs them).
 * A schedule's write on the change feed (re)starts its chain.
 */
export const handoverFeature = defineFeature({
  name: 'handover',
  jobs: jobsOf('notify', [handoverJobSchema]),
  feed: {
    entities: HANDOVER_STREAM_ENTITIES,
    consumers: (ports: { clock: Clock; logger: Logger; notifyQueue: Pick<JobQueue<Job>, 'enqueue'> }) => ({
      handover: createHandoverConsumer({
        queue: ports.notifyQueue,
        logger: ports.logger,
        now: () => ports.clock.now(),
      }),
    }),
  },
});
