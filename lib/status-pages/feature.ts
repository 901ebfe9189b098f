import type { Clock } from '../platform/clock.ts';
import { defineFeature, type Job, jobsOf } from '../platform/feature.ts';
import type { JobQueue } from '../platform/job-queue.ts';
import type { Logger } from '../platform/logger.ts';
import type { Table } from '../store/table.ts';
import { createPageDraftConsumer } from './drafts/draft-consumer.ts';
import { pageDraftPublishJobSchema } from './drafts/publish-job.ts';
import { listStatusPages } from './items/status-page-items.ts';
import {
  createPageSubscriberConsumer,
  PAGE_SUBSCRIBER_STREAM_ENTITIES,
  pageJobSchemas,
} from './subscribers/page-jobs.ts';

/**
 * Status pages' face in the feature list (lib/features/list.ts): the jobs they put on the notify
 * queue (lib/status-pages/job-host.ts runs them), each waiting in hops where it is due later:
 * - `page_draft_publish`: a page's auto-publish of a draft from the dependency graph nobody touched
 *   (id `pdp:<pin_id>:v<version>`; drafts/publish-job.ts). It rides the notify queue because its
 *   consumer runs in both runtimes with the outage retries and the hops delayed notices need, and
 *   publishing a public notice is a notice too: a queue of its own would add a queue, a DLQ and a
 *   consumer to deploy for a few jobs a day.
 * - `page_subscribe`: a keyless subscription, worked after its answer; `page_confirm` and
 *   `page_notice`: a subscriber's confirmation email, and one update's notices to a batch of a
 *   page's subscribers; `page_maint` and `page_maint_notice`: an announced maintenance window's
 *   moments (announced, started, ended) and their notices (subscribers/page-jobs.ts).
 * Its change-feed consumers draft a page incident per page a root cause affects, and its
 * all-clear (after the incidents consumer: a root change is the incident its transition opened),
 * and enqueue subscribers' confirmation emails and update notices: a page incident's update with
 * `notify`, a subscriber's confirmation link and an announced maintenance window's write.
 * It lends notify the pages showing an entity (an alert's "status pages affected").
 */
export const statusPagesFeature = defineFeature({
  name: 'status-pages',
  jobs: jobsOf('notify', [pageDraftPublishJobSchema, ...pageJobSchemas]),
  feed: {
    entities: PAGE_SUBSCRIBER_STREAM_ENTITIES,
    consumers: (ports: {
      table: Table;
      clock: Clock;
      logger: Logger;
      notifyQueue: Pick<JobQueue<Job>, 'enqueue'>;
    }) => ({
      pageDrafts: createPageDraftConsumer({
        table: ports.table,
        clock: ports.clock,
        logger: ports.logger,
        // The auto-publish jobs ride the notify queue (this face says why).
        enqueue: (jobs) => ports.notifyQueue.enqueue(jobs),
      }),
      pageSubscribers: createPageSubscriberConsumer({
        queue: ports.notifyQueue,
        logger: ports.logger,
        now: () => ports.clock.now(),
      }),
    }),
  },
  lends: {
    /** The pages showing any of the entities: the status pages an alert's holding names (lib/notify's port). */
    statusPagesShowing: (table: Table) => async (tenantId: string, entityIds: ReadonlySet<string>) =>
      (await listStatusPages(table, tenantId))
        .filter((page) => page.entity_ids.some((id) => entityIds.has(id)))
        .map((page) => ({ slug: page.slug, title: page.title })),
  },
});
