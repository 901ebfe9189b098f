import { type ContactReachDeps, createContactReach } from '../contacts/reach.ts';
import type { NotifyJob } from '../notify/jobs.ts';
import { isHandoverJob } from '../oncall/handover-jobs.ts';
import type { JobQueue, ReceivedJob } from '../platform/job-queue.ts';
import type { Logger } from '../platform/logger.ts';
import type { WhoService } from '../teams/who-service.ts';
import { createHandoverService } from './handover-service.ts';

/**
 * Handover summaries (issue 55 item 6) as each runtime's notifier runs them: the notify queue's
 * `handover` jobs (lib/oncall/handover-jobs.ts) go to this feature, every other job to the notifier.
 * It sits above lib/notify, lib/contacts, lib/oncall and lib/teams (none of them imports it), so the
 * composition roots (lib/app.ts, lib/cloud/notifier-composition.ts) put it in front of the notifier.
 */
export function withHandover<N extends { handle(job: ReceivedJob<NotifyJob>): Promise<void> }>(
  notifier: N,
  deps: ContactReachDeps & {
    logger: Logger;
    queue: Pick<JobQueue<NotifyJob>, 'enqueue'>;
    who: Pick<WhoService, 'whoIsOnCall'>;
  },
): N {
  const handover = createHandoverService({
    table: deps.table,
    clock: deps.clock,
    logger: deps.logger.child({ component: 'handover' }),
    queue: deps.queue,
    reach: createContactReach(deps),
    who: deps.who,
  });
  return {
    ...notifier,
    handle: (job) => (isHandoverJob(job.body) ? handover.handle(job.body) : notifier.handle(job)),
  };
}
