import * as z from 'zod';
import {
  MAINTENANCE_WINDOW_ENTITY,
  type NoticeMoment,
  nextNoticeMoment,
  type WindowRecord,
  windowOfImage,
} from '../../maintenance/notices.ts';
import type { JobInput, JobQueue } from '../../platform/job-queue.ts';
import { delaySecondsFor, RetryLaterError } from '../../platform/job-queue.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Change, ChangeConsumer } from '../../store/change-feed.ts';
import type { Item } from '../../store/table.ts';
import { type PageIncidentRecord, pageIncidentOfImage } from '../items/page-incident-items.ts';
import { subscriberOfImage } from '../items/subscriber-items.ts';

/**
 * The subscribers' jobs on the notify queue (status pages' face, feature.ts, declares them) and the
 * change-feed consumer that enqueues them. The durable step is the store's write itself: the
 * update of a page incident and the confirmation link of a subscriber are items on the change feed
 * (lib/events/consumers.ts), so a crash after the write loses nothing (the feed redelivers until
 * the jobs are enqueued), and each job's id makes a second enqueue or delivery harmless:
 * - `page_subscribe`: one request of the keyless subscribe form, enqueued by the route before it
 *   answers (id `psr:<random UUID>`), so that the answer is the same, and as quick, whatever the
 *   address: the lookups, quotas and the subscriber's write happen here, after it (subscribe-service.ts);
 * - `page_confirm`: the confirmation email of one link (id `pcf:<subscriber id>:<nonce>`);
 * - `page_notice`: the notices of one update with `notify` to one batch of the page's confirmed
 *   subscribers (id `pgn:<update id>`, then `pgn:<update id>:<last subscriber id>` per next batch).
 * - `page_maint`: one moment of an announced maintenance window (announced, started, ended),
 *   delayed to it in hops (id `pmt:<window id>:v<version>:<moment>:<run start second>`). A window's
 *   write enqueues its first moment from then; each moment enqueues the next while the window is
 *   still that version (a later write starts a chain of its own), then one `page_maint_notice`
 *   per status page of the tenant.
 * - `page_maint_notice`: one moment's notices to one batch of a page's confirmed subscribers whose
 *   components the window covers (id `pmn:<window id>:<moment>:<run start second>:<page>`, then
 *   `…:<last subscriber id>` per next batch).
 */

/** The item types whose changes the consumer reads (lib/events' STREAM_ENTITIES lists them). */
export const PAGE_SUBSCRIBER_STREAM_ENTITIES = [
  'page_incident',
  'page_subscriber',
  MAINTENANCE_WINDOW_ENTITY,
] as const;

const MOMENTS = ['announced', 'started', 'ended'] as const;

/** What a maintenance job says of the moment it is about. */
const momentFields = {
  tenant_id: z.string(),
  window_id: z.string(),
  moment: z.enum(MOMENTS),
  /** The run's start and end (its identity among a recurring window's runs). */
  start_ms: z.number().int(),
  end_ms: z.number().int(),
  /** The moment itself: the job waits for it. */
  due_ms: z.number().int(),
};

export const pageJobSchemas = [
  z.object({
    kind: z.literal('page_subscribe'),
    tenant_id: z.string(),
    page: z.string(),
    /** What the form asked, parsed by the route: the address (or a webhook's), its components. */
    request: z.object({
      kind: z.enum(['email', 'webhook']),
      address: z.string(),
      url: z.string().nullable(),
      components: z.union([z.literal('all'), z.array(z.string())]),
    }),
  }),
  z.object({
    kind: z.literal('page_confirm'),
    tenant_id: z.string(),
    page: z.string(),
    subscriber_id: z.string(),
    /** The link's nonce: a newer link makes this job stale. */
    nonce: z.string(),
  }),
  z.object({
    kind: z.literal('page_notice'),
    tenant_id: z.string(),
    page: z.string(),
    incident_id: z.string(),
    update_id: z.string(),
    /** The batch starts after this subscriber id (null: the first batch). */
    after: z.string().nullable(),
  }),
  z.object({
    kind: z.literal('page_maint'),
    ...momentFields,
    /** The window's version that scheduled it: only that version's chain goes on. */
    version: z.number().int(),
  }),
  z.object({
    kind: z.literal('page_maint_notice'),
    ...momentFields,
    page: z.string(),
    /** The batch starts after this subscriber id (null: the first batch). */
    after: z.string().nullable(),
  }),
] as const;
export type PageJob = z.infer<(typeof pageJobSchemas)[number]>;
export type PageNoticeJob = Extract<PageJob, { kind: 'page_notice' }>;
export type PageSubscribeJob = Extract<PageJob, { kind: 'page_subscribe' }>;
export type MaintenanceMomentJob = Extract<PageJob, { kind: 'page_maint' }>;
export type MaintenanceNoticeJob = Extract<PageJob, { kind: 'page_maint_notice' }>;

const second = (ms: number) => Math.floor(ms / 1000);

/** The claim key of one moment's notice (in place of an incident update's id). */
export const maintenanceNoticeKey = (job: Pick<MaintenanceNoticeJob, 'window_id' | 'moment' | 'start_ms'>) =>
  `mnt:${job.window_id}:${job.moment}:${second(job.start_ms)}`;

export const maintenanceNoticeJobId = (job: MaintenanceNoticeJob) =>
  `pmn:${job.window_id}:${job.moment}:${second(job.start_ms)}:${job.page}${job.after === null ? '' : `:${job.after}`}`;

const maintenanceMomentJobId = (job: MaintenanceMomentJob) =>
  `pmt:${job.window_id}:v${job.version}:${job.moment}:${second(job.start_ms)}`;

/** The chain's job of `moment` of this version of `window`, delayed to it (one hop at most). */
export function maintenanceMomentJob(
  window: WindowRecord,
  moment: NoticeMoment,
  nowMs: number,
): JobInput<PageJob> {
  const body: MaintenanceMomentJob = {
    kind: 'page_maint',
    tenant_id: window.tenant_id,
    window_id: window.id,
    version: window.version,
    moment: moment.kind,
    start_ms: moment.startMs,
    end_ms: moment.endMs,
    due_ms: moment.atMs,
  };
  return momentHop(body, nowMs);
}

/** A moment job, delayed to its moment; `landsMs` names a hop of a wait longer than one queue delay. */
export function momentHop(body: MaintenanceMomentJob, nowMs: number, landsMs?: number): JobInput<PageJob> {
  const id = maintenanceMomentJobId(body);
  return {
    id: landsMs === undefined ? id : `${id}:hop:${Math.ceil(landsMs / 1000)}`,
    body,
    delaySeconds: delaySecondsFor(body.due_ms, nowMs),
  };
}

/** Whether a write of an announced window asks for a new chain, and from when its moments count. */
function chainFrom(before: WindowRecord | undefined, after: WindowRecord): number | undefined {
  if (!after.announce || after.announced_at === null) return undefined;
  if (before && before.version === after.version) return undefined;
  // Newly announced: from the announcement (its own moment); otherwise from the write.
  const fresh = !before?.announce || before.announced_at !== after.announced_at;
  return Date.parse(fresh ? after.announced_at : after.updated_at);
}

/** The queue the jobs go to (the notify queue, whose job union includes them). */
export type PageJobQueue = Pick<JobQueue<PageJob>, 'enqueue'>;

/** Subscribers read per notice job; the next batch is a job of its own. */
export const NOTICE_BATCH = 100;

/** Whether a notify job is one of the subscribers'. */
export const isPageJob = (job: { kind: string }): job is PageJob =>
  job.kind === 'page_subscribe' ||
  job.kind === 'page_confirm' ||
  job.kind === 'page_notice' ||
  job.kind === 'page_maint' ||
  job.kind === 'page_maint_notice';

/**
 * Throws for the queue to bring a notice job back when one of its notices asked (the latest ask: the
 * job comes back once for all of them), after the rest of its batch was told.
 */
export function comeBackIfAsked(asks: readonly (number | undefined)[], what: string): void {
  const asked = asks.filter((a): a is number => a !== undefined);
  if (asked.length > 0) throw new RetryLaterError(`${what}: some are to be sent again`, Math.max(...asked));
}

export const noticeJobId = (updateId: string, after: string | null) =>
  after === null ? `pgn:${updateId}` : `pgn:${updateId}:${after}`;

/** The updates of a published incident that ask to notify and were not there (or not published) before. */
function newNotices(before: PageIncidentRecord | undefined, after: PageIncidentRecord): string[] {
  if (after.draft) return [];
  const told = new Set(before && !before.draft ? before.updates.map((u) => u.id) : []);
  return after.updates.filter((u) => u.notify && !told.has(u.id)).map((u) => u.id);
}

function jobsOf(change: Change, nowMs: number): JobInput<PageJob>[] {
  const image = change.newImage as Item | undefined;
  if (change.eventName === 'REMOVE' || !image) return [];
  const window = windowOfImage(image);
  if (window) {
    const fromMs = chainFrom(windowOfImage(change.oldImage), window);
    const first = fromMs === undefined ? undefined : nextNoticeMoment(window, fromMs);
    return first ? [maintenanceMomentJob(window, first, nowMs)] : [];
  }
  const subscriber = subscriberOfImage(image);
  if (subscriber) {
    const before = subscriberOfImage(change.oldImage);
    const nonce = subscriber.confirm_nonce;
    if (subscriber.state !== 'pending' || nonce === null || before?.confirm_nonce === nonce) return [];
    const { tenant_id, page, id } = subscriber;
    return [
      {
        id: `pcf:${id}:${nonce}`,
        body: { kind: 'page_confirm', tenant_id, page, subscriber_id: id, nonce },
      },
    ];
  }
  const incident = pageIncidentOfImage(image);
  if (!incident) return [];
  return newNotices(pageIncidentOfImage(change.oldImage), incident).map((updateId) => ({
    id: noticeJobId(updateId, null),
    body: {
      kind: 'page_notice',
      tenant_id: incident.tenant_id,
      page: incident.page,
      incident_id: incident.id,
      update_id: updateId,
      after: null,
    },
  }));
}

/** Enqueues the subscribers' jobs of a batch of changes; an enqueue that fails throws (the feed redelivers). */
export function createPageSubscriberConsumer(deps: {
  queue: PageJobQueue;
  logger: Logger;
  now: () => number;
}): ChangeConsumer {
  return async (changes) => {
    const nowMs = deps.now();
    const jobs = changes.flatMap((change) => jobsOf(change, nowMs));
    if (jobs.length === 0) return;
    const { failed } = await deps.queue.enqueue(jobs);
    if (failed.length > 0) {
      deps.logger.warn('status page subscriber jobs not enqueued; the feed redelivers them', {
        jobs: failed.length,
      });
      throw new Error(`${failed.length} status page subscriber job(s) could not be enqueued`);
    }
  };
}
