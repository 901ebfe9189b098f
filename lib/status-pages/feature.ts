import { defineFeature, jobsOf } from '../platform/feature.ts';
import { pageDraftPublishJobSchema } from './drafts/publish-job.ts';
import { pageJobSchemas } from './subscribers/page-jobs.ts';

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
 */
export const statusPagesFeature = defineFeature({
  name: 'status-pages',
  jobs: jobsOf('notify', [pageDraftPublishJobSchema, ...pageJobSchemas]),
});
