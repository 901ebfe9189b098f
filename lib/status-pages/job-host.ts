import type { EmailSender } from '../domain/formats.ts';
import type { Clock } from '../platform/clock.ts';
import { defineJobHost, type Job } from '../platform/feature.ts';
import { delaySecondsFor, type JobQueue, MAX_DELAY_SECONDS } from '../platform/job-queue.ts';
import type { Logger } from '../platform/logger.ts';
import type { Table } from '../store/table.ts';
import {
  type PageDraftPublishJob,
  pageDraftPublishJobId,
  publishUntouchedDraft,
} from './drafts/publish-job.ts';
import { statusPagesFeature } from './feature.ts';
import { createPageJobs, type PageJobDeps } from './subscribers/notice-jobs.ts';
import { linkKeyOf } from './subscribers/subscriber-links.ts';
import { createSubscriberWebhooks, type SignedPost } from './subscribers/subscriber-webhooks.ts';

/** What the notify queue's host gives status pages' jobs: its store, its mail and the notifier's quota and webhook POST. */
interface StatusPageJobPorts {
  table: Table;
  clock: Clock;
  logger: Logger;
  config: { emailFrom?: EmailSender | undefined; publicUrl?: string | undefined };
  queue: Pick<JobQueue<Job>, 'enqueue'>;
  /** The host's email transport; undefined (or no sender): emails are skipped, saying so. */
  email?: NonNullable<PageJobDeps['mail']>['transport'] | undefined;
  notifier: { spendEmail: PageJobDeps['spendEmail']; postSignedWebhook: SignedPost };
}

/**
 * A draft's auto-publish (drafts/publish-job.ts): not yet due, it enqueues its next hop (id
 * `<job id>:hop:<second it lands>`, so a redelivered hop enqueues the same one); due, it publishes
 * the draft if nobody touched it (a redelivery publishes nothing twice).
 */
async function publishDraft(ports: StatusPageJobPorts, body: PageDraftPublishJob): Promise<void> {
  const nowMs = ports.clock.now();
  if (body.due_ms > nowMs) {
    const landsMs = Math.min(body.due_ms, nowMs + MAX_DELAY_SECONDS * 1000);
    const id = `${pageDraftPublishJobId(body)}:hop:${Math.ceil(landsMs / 1000)}`;
    const { failed } = await ports.queue.enqueue([
      { id, body, delaySeconds: delaySecondsFor(body.due_ms, nowMs) },
    ]);
    if (failed.length > 0) throw new Error(`${failed.length} notify job(s) could not be enqueued`);
    return;
  }
  const published = await publishUntouchedDraft(ports.table, ports.clock, body);
  ports.logger.info(published ? 'draft page incident auto-published' : 'draft page incident left as it is', {
    page: body.page,
    incident: body.incident_id,
  });
}

/**
 * Status pages' jobs as the notify queue's host runs them: a draft's auto-publish, and the
 * subscribers' confirmation emails and update notices, through the host's email transport and the
 * tenant's email quota, and webhooks signed as the webhook channel's, through the same SSRF guard.
 */
export const statusPagesJobHost = defineJobHost({
  feature: statusPagesFeature,
  queue: 'notify',
  handler(ports: StatusPageJobPorts) {
    const { table, config } = ports;
    const linkKey = linkKeyOf(table);
    const pageJobs = createPageJobs({
      table,
      clock: ports.clock,
      logger: ports.logger.child({ component: 'page-subscribers' }),
      queue: ports.queue,
      linkKey,
      mail: ports.email && config.emailFrom ? { transport: ports.email, from: config.emailFrom } : undefined,
      publicUrl: config.publicUrl,
      spendEmail: ports.notifier.spendEmail,
      webhooks: createSubscriberWebhooks({ linkKey, post: ports.notifier.postSignedWebhook }),
    });
    return (job) =>
      job.body.kind === 'page_draft_publish' ? publishDraft(ports, job.body) : pageJobs.handle(job.body);
  },
});
