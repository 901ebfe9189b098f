import type { EmailSender } from '../../domain/formats.ts';
import type { Clock } from '../../platform/clock.ts';
import { ValidationError } from '../../platform/errors.ts';
import { retryDelaySeconds } from '../../platform/job-queue.ts';
import type { Logger } from '../../platform/logger.ts';
import { ConditionFailedError, type Table } from '../../store/table.ts';
import { getPageIncident, type PageIncidentRecord } from '../items/page-incident-items.ts';
import { getStatusPage, type PageAddress, type StatusPageRecord } from '../items/status-page-items.ts';
import {
  getSubscriber,
  listSubscribers,
  type SubscriberRecord,
  subscriberReplacedOp,
} from '../items/subscriber-items.ts';
import { createMaintenanceNoticeJobs, entityNames } from './maintenance-jobs.ts';
import { confirmationMail, type MailContent, noticeMail } from './notice-email.ts';
import {
  MAX_NOTICE_ATTEMPTS,
  type NoticeOutcome,
  recordNoticeAbandoned,
  recordNoticeOutcome,
  takeNotice,
} from './notice-items.ts';
import {
  comeBackIfAsked,
  isPageJob,
  NOTICE_BATCH,
  noticeJobId,
  type PageJob,
  type PageJobQueue,
  type PageNoticeJob,
  type PageSubscribeJob,
} from './page-jobs.ts';
import { createSubscribeService, SUBSCRIBE_QUOTAS } from './subscribe-service.ts';
import { confirmPath, type LinkKey, linkToken, managePath } from './subscriber-links.ts';
import { type SubscriberWebhooks, webhookNotice } from './subscriber-webhooks.ts';

/**
 * The notify queue's handlers of the subscribers' jobs (page-jobs.ts). Every email goes through
 * the runtime's transport (SMTP locally, SES in the cloud) and counts against the tenant's daily
 * email quota. A notice is claimed per (subscriber, update) before each attempt, so a redelivered
 * job, or a batch enqueued twice, tells nobody twice, and is sent at least once: a failed attempt
 * brings the job back for it (1 s, then 2 s: the channels' series, 3 attempts), and a claim
 * abandoned by a crash before the send is taken again once it expires, always under the same
 * delivery id (the webhook's `x-service-delivery`, the email's). Its final outcome is counted per
 * update, and the failed ones are listed (subscriber-admin.ts).
 */

/** One email as the runtime's transport takes it (lib/notify's EmailTransport fits it). */
interface PageMail extends Omit<MailContent, 'headers'> {
  from: EmailSender;
  to: string[];
  deliveryId: string;
  headers: Record<string, string>;
}
interface PageMailer {
  send(mail: PageMail): Promise<{ ok: boolean; error?: string | null }>;
}

export interface PageJobDeps {
  table: Table;
  clock: Clock;
  logger: Logger;
  queue: PageJobQueue;
  linkKey: LinkKey;
  /** Undefined when this deployment has no email transport or sender: emails are skipped, saying so. */
  mail: { transport: PageMailer; from: EmailSender } | undefined;
  publicUrl: string | undefined;
  /** Takes `count` emails from the tenant's daily email quota; the refusal when it is spent. */
  spendEmail(tenantId: string, count: number): Promise<{ skipped: string } | undefined>;
  webhooks: SubscriberWebhooks;
}

export function createPageJobs(deps: PageJobDeps) {
  const { table, clock, logger } = deps;
  const base = () => deps.publicUrl?.replace(/\/+$/, '') ?? '';
  /**
   * Where a page's routes are for its subscribers: https://{domain} on its custom domain, else
   * /p/{slug} on VIGIL_PUBLIC_URL. The page (`/` on its domain) is `pageUrl`.
   */
  const rootOf = (page: PageAddress) =>
    page.domain === null ? `${base()}/p/${page.slug}` : `https://${page.domain}`;
  const pageUrl = (page: PageAddress) => (page.domain === null ? rootOf(page) : `${rootOf(page)}/`);

  /**
   * Sends one email to one subscriber, within the tenant's quota. A delivery's first attempt spends
   * one mail of it; a later attempt of the same delivery id (after a refusal, or a claim a crash
   * left) spends nothing: one delivery, one mail of the quota, however often it is tried.
   */
  const email = async (
    s: SubscriberRecord,
    content: MailContent,
    deliveryId: string,
    attempt = 1,
  ): Promise<{ status: NoticeOutcome; reason: string | null }> => {
    if (!deps.mail) return { status: 'skipped', reason: 'no email transport or sender on this deployment' };
    const refused = attempt === 1 ? await deps.spendEmail(s.tenant_id, 1) : undefined;
    if (refused) return { status: 'skipped', reason: refused.skipped };
    const outcome = await deps.mail.transport
      .send({ ...content, from: deps.mail.from, to: [s.address], deliveryId })
      .catch((error: unknown) => ({ ok: false, error: String(error) }));
    return outcome.ok
      ? { status: 'sent', reason: null }
      : { status: 'failed', reason: outcome.error ?? 'not sent' };
  };

  /**
   * The keyless form's request, after its 202 (page-jobs.ts `page_subscribe`): what it issues is
   * the subscriber's write, whose change feed has the confirmation mailed. Nothing issued (a quota,
   * a confirmed address, a link out within the hour) or a page changed meanwhile is logged, never
   * retried; the address is not logged.
   */
  const subscriptions = createSubscribeService({ table, clock, linkKey: deps.linkKey });
  const subscribe = async (job: PageSubscribeJob) => {
    const page = await getStatusPage(table, job.tenant_id, job.page);
    if (!page) return;
    const { kind, address, url, components } = job.request;
    const request = { kind, address, url: url ?? undefined, components, source: 'public' as const };
    const done = await subscriptions.subscribe(page, request).catch((error: unknown) => {
      // The page stopped showing a component the request named: nothing to subscribe to.
      if (error instanceof ValidationError) return { issued: false as const, reason: error.message };
      throw error;
    });
    if (!done.issued)
      logger.info('status page subscription request issued nothing', {
        tenant_id: job.tenant_id,
        page: job.page,
        reason: done.reason,
      });
  };

  const confirm = async (job: Extract<PageJob, { kind: 'page_confirm' }>) => {
    const s = await getSubscriber(table, job.tenant_id, job.page, job.subscriber_id);
    if (s?.state !== 'pending' || s.confirm_nonce !== job.nonce || s.confirm_mailed === job.nonce) return;
    const page = await getStatusPage(table, job.tenant_id, job.page);
    if (!page) return;
    const claimed = { ...s, confirm_mailed: job.nonce, version: s.version + 1 };
    try {
      await table.transact([subscriberReplacedOp(claimed, s.version)]);
    } catch (error) {
      // Changed meanwhile (confirmed, a newer link): that change enqueued what is due.
      if (error instanceof ConditionFailedError) return;
      throw error;
    }
    const token = linkToken(await deps.linkKey(), 'confirm', s, job.nonce);
    const link = `${rootOf(page)}${confirmPath(token)}`;
    const days = Math.round(SUBSCRIBE_QUOTAS.confirmTtlMs / 86_400_000);
    const sent = await email(s, confirmationMail(page.title, link, days, s.url), `pcf-${s.id}-${job.nonce}`);
    if (sent.status !== 'sent')
      logger.warn('status page confirmation email not sent', { tenant_id: s.tenant_id, reason: sent.reason });
  };

  /** Whether a subscriber is told of an update: confirmed by then, and taking all or an impacted entity. */
  const concerns = (s: SubscriberRecord, incident: PageIncidentRecord, at: string) =>
    s.confirmed_at !== null &&
    s.confirmed_at <= at &&
    (s.components === 'all' || incident.impact.some((i) => s.components.includes(i.entity_id)));

  /**
   * Tells one subscriber at least once: takes the notice's next attempt (notice-items.ts takeNotice:
   * a notice sent before sends nothing; a failed one is sent again until MAX_NOTICE_ATTEMPTS; one
   * whose job died after the claim once the claim is abandoned), sends it (`send` gets the attempt's
   * number), records the outcome.
   * Answers when the job is to come back for it (a failed attempt with attempts left: 1 s, then
   * 2 s; another attempt's claim still fresh: when it expires), or undefined.
   */
  const tellSubscriber = async (
    page: PageAddress,
    s: SubscriberRecord,
    updateId: string,
    send: (manageUrl: string, attempt: number) => Promise<{ status: NoticeOutcome; reason: string | null }>,
  ): Promise<number | undefined> => {
    const k = { tenant_id: s.tenant_id, update_id: updateId, subscriber_id: s.id };
    const take = await takeNotice(table, k, clock.now());
    if (!take.taken) {
      if (take.abandoned) await recordNoticeAbandoned(table, k, clock.now());
      return take.retryInSeconds;
    }
    const manageUrl = `${rootOf(page)}${managePath(linkToken(await deps.linkKey(), 'manage', s, s.manage_nonce))}`;
    const outcome = await send(manageUrl, take.attempt);
    await recordNoticeOutcome(table, k, take.attempt, outcome, clock.now());
    if (outcome.status !== 'failed') return undefined;
    if (take.attempt < MAX_NOTICE_ATTEMPTS) return retryDelaySeconds(take.attempt);
    logger.warn('status page notice failed after its last attempt', {
      tenant_id: s.tenant_id,
      subscriber_id: s.id,
      notice: updateId,
      reason: outcome.reason,
    });
    return undefined;
  };

  const tell = (
    page: StatusPageRecord,
    incident: PageIncidentRecord,
    update: PageIncidentRecord['updates'][number],
    names: ReadonlyMap<string, string>,
    s: SubscriberRecord,
  ) =>
    tellSubscriber(page, s, update.id, (manageUrl, attempt) => {
      const deliveryId = `pgn-${update.id}-${s.id}`;
      return s.kind === 'webhook'
        ? deps.webhooks.deliver(
            s,
            webhookNotice({ page, pageUrl: pageUrl(page), manageUrl, incident, update, names }),
            deliveryId,
          )
        : email(
            s,
            noticeMail({ pageTitle: page.title, pageUrl: pageUrl(page), manageUrl, incident, update }),
            deliveryId,
            attempt,
          );
    });

  const notice = async (job: PageNoticeJob) => {
    const incident = await getPageIncident(table, job.tenant_id, job.page, job.incident_id);
    const update = incident?.updates.find((u) => u.id === job.update_id);
    if (!incident || incident.draft || !update?.notify) return;
    const page = await getStatusPage(table, job.tenant_id, job.page);
    if (!page) return;
    const batch = await listSubscribers(table, job.tenant_id, job.page, {
      state: 'confirmed',
      limit: NOTICE_BATCH,
      after: job.after ?? undefined,
    });
    // The next batch first: a crash in this one brings this job back, which enqueues the same next one.
    if (batch.next !== null) {
      const { failed } = await deps.queue.enqueue([
        { id: noticeJobId(update.id, batch.next), body: { ...job, after: batch.next } },
      ]);
      if (failed.length > 0) throw new Error('the next batch of page notices could not be enqueued');
    }
    const concerned = batch.items.filter((s) => concerns(s, incident, update.at));
    // Webhooks name the impacted components by name too (as the public page does).
    const names = concerned.some((s) => s.kind === 'webhook')
      ? await entityNames(
          table,
          job.tenant_id,
          incident.impact.map((i) => i.entity_id),
        )
      : new Map<string, string>();
    const asks: (number | undefined)[] = [];
    for (const s of concerned) asks.push(await tell(page, incident, update, names, s));
    comeBackIfAsked(asks, `the notices of update ${update.id}`);
  };

  const maintenance = createMaintenanceNoticeJobs({
    ...deps,
    pageUrl,
    email,
    tellSubscriber,
  });

  return {
    isPageJob,
    /** Runs one subscribers' job; throws to have the queue bring it back. */
    async handle(job: PageJob): Promise<void> {
      if (job.kind === 'page_subscribe') return subscribe(job);
      if (job.kind === 'page_confirm') return confirm(job);
      if (job.kind === 'page_notice') return notice(job);
      return maintenance.handle(job);
    },
  };
}
