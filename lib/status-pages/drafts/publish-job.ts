import * as z from 'zod';
import { type Clock, isoTime } from '../../platform/clock.ts';
import { delaySecondsFor, type EnqueueResult, type JobInput } from '../../platform/job-queue.ts';
import { ConditionFailedError, type Table } from '../../store/table.ts';
import { publishedFields } from '../incidents/publish.ts';
import {
  getPageIncident,
  type PageIncidentRecord,
  pageIncidentReplacedOp,
} from '../items/page-incident-items.ts';
import { getStatusPage, type StatusPageRecord } from '../items/status-page-items.ts';

/**
 * A page's auto-publish of drafts from the dependency graph (`auto_publish_drafts_after_minutes`):
 * a delayed job on the notify queue (status pages' face, feature.ts, declares this kind; its
 * handler, job-host.ts, waits in hops of at most 15 minutes, then calls `publishUntouchedDraft`). It names the
 * incident and the version the drafting wrote: any later write (a person's edit, update, publish;
 * or a delete) leaves the job nothing to do, and the publish itself is conditioned on that
 * version, so a redelivered job publishes once.
 */

export const pageDraftPublishJobSchema = z.object({
  kind: z.literal('page_draft_publish'),
  tenant_id: z.string(),
  page: z.string(),
  incident_id: z.string(),
  /** The version the drafting wrote: the job publishes only that one. */
  version: z.number().int(),
  /** When the page's minutes are up: the job waits for it. */
  due_ms: z.number().int(),
});
export type PageDraftPublishJob = z.infer<typeof pageDraftPublishJobSchema>;

/** Enqueues publish jobs (the notify queue's enqueue); ids make a second enqueue harmless. */
export type PublishJobEnqueue = (jobs: JobInput<PageDraftPublishJob>[]) => Promise<EnqueueResult>;

/** The job's id: one per incident and drafted version. */
export const pageDraftPublishJobId = (job: Pick<PageDraftPublishJob, 'incident_id' | 'version'>) =>
  `pdp:${job.incident_id}:v${job.version}`;

/**
 * Schedules the auto-publish of `record` (as the drafting is about to write it) when the page
 * asks for it: due `minutes` after the draft was made, or after the all-clear for its drafted
 * resolved update. Called before the write, so a failed enqueue fails the change (redelivered)
 * and a failed write leaves a job that finds nothing to do.
 */
export async function scheduleAutoPublish(
  enqueue: PublishJobEnqueue,
  page: StatusPageRecord,
  record: PageIncidentRecord,
  nowMs: number,
): Promise<void> {
  const minutes = page.auto_publish_drafts_after_minutes;
  if (minutes === null || minutes === undefined) return;
  const fromMs = Date.parse(record.drafted_update ? record.drafted_update.at : record.created_at);
  const body: PageDraftPublishJob = {
    kind: 'page_draft_publish',
    tenant_id: record.tenant_id,
    page: record.page,
    incident_id: record.id,
    version: record.version,
    due_ms: fromMs + minutes * 60_000,
  };
  const result = await enqueue([
    { id: pageDraftPublishJobId(body), body, delaySeconds: delaySecondsFor(body.due_ms, nowMs) },
  ]);
  if (result.failed.length > 0) throw new Error(`the auto-publish of ${record.id} could not be scheduled`);
}

/**
 * Publishes the draft (or the drafted resolved update) the job names if nobody touched it since:
 * still the version the job names, that version written by the drafting, and the page still
 * auto-publishing. Answers whether it published.
 */
export async function publishUntouchedDraft(
  table: Table,
  clock: Clock,
  job: PageDraftPublishJob,
): Promise<boolean> {
  const page = await getStatusPage(table, job.tenant_id, job.page);
  if (
    page?.auto_publish_drafts_after_minutes === null ||
    page?.auto_publish_drafts_after_minutes === undefined
  )
    return false;
  const current = await getPageIncident(table, job.tenant_id, job.page, job.incident_id);
  if (!current || current.version !== job.version || current.drafted_version !== current.version)
    return false;
  if (!current.draft && !current.drafted_update) return false;
  const version = current.version + 1;
  const next: PageIncidentRecord = {
    ...current,
    ...publishedFields(current),
    updated_at: isoTime(clock.now()),
    version,
    // Published by the drafting itself: the all-clear may still auto-publish its resolved update.
    drafted_version: version,
  };
  try {
    await table.transact([pageIncidentReplacedOp(next, current.version)]);
  } catch (error) {
    if (error instanceof ConditionFailedError) return false;
    throw error;
  }
  return true;
}
