import { parseEntityState, readEntityItems, readEntityPointers } from '../../catalog/entities.ts';
import { getWindow, momentHolds, nextNoticeMoment, windowCovers } from '../../maintenance/notices.ts';
import { type Clock, isoTime } from '../../platform/clock.ts';
import { MAX_DELAY_SECONDS } from '../../platform/job-queue.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Table } from '../../store/table.ts';
import { getStatusPage, listStatusPages, type PageAddress } from '../items/status-page-items.ts';
import { listSubscribers, type SubscriberRecord } from '../items/subscriber-items.ts';
import { type MailContent, maintenanceMail } from './notice-email.ts';
import type { NoticeOutcome } from './notice-items.ts';
import {
  comeBackIfAsked,
  type MaintenanceMomentJob,
  type MaintenanceNoticeJob,
  maintenanceMomentJob,
  maintenanceNoticeJobId,
  maintenanceNoticeKey,
  momentHop,
  NOTICE_BATCH,
  type PageJob,
  type PageJobQueue,
} from './page-jobs.ts';
import { type SubscriberWebhooks, webhookMaintenanceNotice } from './subscriber-webhooks.ts';

/**
 * The notify queue's handlers of maintenance notices (issue 54 item 2): subscribers of a page are
 * told when an announced window that covers one of the page's entities is announced, starts and
 * ends (lib/maintenance/notice-times.ts computes the moments). A moment job waits for its moment
 * in hops of at most one queue delay, enqueues the next moment while the window is the version
 * that scheduled it, then one notice job per page of the tenant; each subscriber's notice of a
 * moment is claimed before each attempt (notice-jobs.ts's `tellSubscriber`), so a redelivery, a hop
 * sent twice or a window's two chains meeting on one moment tell nobody twice, and a failed or
 * abandoned attempt is made again.
 */

type Outcome = { status: NoticeOutcome; reason: string | null };

export interface MaintenanceJobDeps {
  table: Table;
  clock: Clock;
  logger: Logger;
  queue: PageJobQueue;
  webhooks: SubscriberWebhooks;
  /** The page's public URL (on its custom domain when it has one). */
  pageUrl(page: PageAddress): string;
  /** One email to one subscriber within the tenant's quota, spent by a delivery's first attempt only (notice-jobs.ts). */
  email(s: SubscriberRecord, content: MailContent, deliveryId: string, attempt: number): Promise<Outcome>;
  /**
   * Tells a subscriber at least once per notice key (notice-jobs.ts); `send` gets the subscriber's
   * manage link and the attempt's number. Answers when the job is to come back for it, or undefined.
   */
  tellSubscriber(
    page: PageAddress,
    s: SubscriberRecord,
    key: string,
    send: (manageUrl: string, attempt: number) => Promise<Outcome>,
  ): Promise<number | undefined>;
}

/** The names of these entities of the tenant, by id (a deleted one has none). */
export async function entityNames(
  table: Table,
  tenantId: string,
  ids: readonly string[],
): Promise<Map<string, string>> {
  const pointers = await readEntityPointers(table, tenantId, [...ids]);
  const entities = (await readEntityItems(table, tenantId, pointers)).map(parseEntityState);
  return new Map(entities.map((e) => [e.id, e.name]));
}

export function createMaintenanceNoticeJobs(deps: MaintenanceJobDeps) {
  const { table, clock } = deps;

  const enqueue = async (jobs: Parameters<PageJobQueue['enqueue']>[0], what: string) => {
    if (jobs.length === 0) return;
    const { failed } = await deps.queue.enqueue(jobs);
    if (failed.length > 0) throw new Error(`${what} could not be enqueued`);
  };

  /** Not yet due: one more hop, and true. */
  const waited = async (job: MaintenanceMomentJob): Promise<boolean> => {
    const nowMs = clock.now();
    if (job.due_ms <= nowMs) return false;
    const landsMs = Math.min(job.due_ms, nowMs + MAX_DELAY_SECONDS * 1000);
    await enqueue([momentHop(job, nowMs, landsMs)], 'the next hop of a maintenance moment');
    return true;
  };

  const moment = async (job: MaintenanceMomentJob) => {
    if (await waited(job)) return;
    const window = await getWindow(table, job.tenant_id, job.window_id);
    if (!window) return;
    const at = { kind: job.moment, atMs: job.due_ms, startMs: job.start_ms };
    // Only the version that scheduled this chain schedules its next moment: a later write started
    // its own chain from then. This moment is still told if it holds (the chains may meet on it;
    // the claims keep that harmless), so a write just as it came due loses it not.
    if (window.version === job.version) {
      const next = nextNoticeMoment(window, job.due_ms + 1);
      if (next)
        await enqueue([maintenanceMomentJob(window, next, clock.now())], 'the next maintenance moment');
    }
    if (!momentHolds(window, at)) return;
    const pages = await listStatusPages(table, job.tenant_id);
    await enqueue(
      pages.map((page) => {
        const body: MaintenanceNoticeJob = {
          kind: 'page_maint_notice',
          tenant_id: job.tenant_id,
          window_id: job.window_id,
          moment: job.moment,
          start_ms: job.start_ms,
          end_ms: job.end_ms,
          due_ms: job.due_ms,
          page: page.slug,
          after: null,
        };
        return { id: maintenanceNoticeJobId(body), body };
      }),
      'the maintenance notices of the pages',
    );
  };

  const notice = async (job: MaintenanceNoticeJob) => {
    const window = await getWindow(table, job.tenant_id, job.window_id);
    if (!window || !momentHolds(window, { kind: job.moment, atMs: job.due_ms, startMs: job.start_ms }))
      return;
    const page = await getStatusPage(table, job.tenant_id, job.page);
    if (!page) return;
    const covered = await windowCovers(
      table,
      job.tenant_id,
      window,
      page.entity_ids.map((id) => ({ id })),
    );
    if (covered.length === 0) return;
    const batch = await listSubscribers(table, job.tenant_id, job.page, {
      state: 'confirmed',
      limit: NOTICE_BATCH,
      after: job.after ?? undefined,
    });
    // The next batch first: a crash in this one brings this job back, which enqueues the same next one.
    if (batch.next !== null) {
      const next = { ...job, after: batch.next };
      await enqueue(
        [{ id: maintenanceNoticeJobId(next), body: next }],
        'the next batch of maintenance notices',
      );
    }
    const at = isoTime(job.due_ms);
    const concerned = batch.items.filter(
      (s) =>
        s.confirmed_at !== null &&
        s.confirmed_at <= at &&
        (s.components === 'all' || covered.some((id) => s.components.includes(id))),
    );
    if (concerned.length === 0) return;
    const names = await entityNames(table, job.tenant_id, covered);
    const key = maintenanceNoticeKey(job);
    const pageUrl = deps.pageUrl(page);
    const asks: (number | undefined)[] = [];
    for (const s of concerned) {
      const components = covered
        .filter((id) => s.components === 'all' || s.components.includes(id))
        .flatMap((id) => names.get(id) ?? []);
      const notice = {
        pageTitle: page.title,
        pageUrl,
        name: window.name,
        moment: job.moment,
        startMs: job.start_ms,
        endMs: job.end_ms,
        publicNote: window.public_note,
        components,
      };
      const ask = await deps.tellSubscriber(page, s, key, (manageUrl, attempt) => {
        const deliveryId = `${key.replaceAll(':', '-')}-${s.id}`;
        return s.kind === 'webhook'
          ? deps.webhooks.deliver(s, webhookMaintenanceNotice({ ...notice, page, manageUrl }), deliveryId)
          : deps.email(s, maintenanceMail({ ...notice, manageUrl }), deliveryId, attempt);
      });
      asks.push(ask);
    }
    comeBackIfAsked(asks, `the maintenance notices of ${key}`);
  };

  return {
    /** Runs one maintenance notice job; throws to have the queue bring it back. */
    handle(job: Extract<PageJob, { kind: 'page_maint' | 'page_maint_notice' }>): Promise<void> {
      return job.kind === 'page_maint' ? moment(job) : notice(job);
    },
  };
}
