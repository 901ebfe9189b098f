import type { IncidentRecord } from '../incidents/incident-items.ts';
import type { NotifyJob } from '../notify/jobs.ts';
import type { JobInput, JobQueue } from '../platform/job-queue.ts';
import type { Logger } from '../platform/logger.ts';
import type { Table } from '../store/table.ts';
import { type PageRecord, readPages } from './page-items.ts';

/**
 * A page ends with a resolution message (issue 75 item 10; PagerDuty and Opsgenie tell the
 * responder too): when an incident is resolved (its entity up, by hand), each person its climb
 * reached is told, once per contact method a page reached them by, in their time zone. The
 * incidents consumer and the incident service call this file's hook once they resolved an
 * incident; it queues a `page_resolved` job (id `pgr:<inc_id>`) when the incident paged someone.
 * Each message is claimed in the incident's page log (key `resolved:u:<usr_id>:<cmt_id>`, target
 * `{type: "resolution"}`; resolution.ts sends them) before it is sent, as pages are (page-items.ts), so a redelivered job
 * tells nobody twice, and a failed send is tried again by the job, brought back by the queue.
 */

/*
 * The hook is its own file so that the change-feed consumers (the stream function) load only it,
 * not the sending of messages (test/architecture/lean-functions.test.ts).
 */

/** The page log key prefix of a resolution message. */
export const RESOLVED = 'resolved:';

/** The sent pages that reached a person, one per (person, contact method), oldest first. */
export function reachedBy(pages: readonly PageRecord[]): PageRecord[] {
  const reached = new Map<string, PageRecord>();
  for (const p of pages) {
    if (p.key.startsWith(RESOLVED) || p.outcome !== 'sent' || !p.user_id || !p.contact_method_id) continue;
    const key = `${p.user_id}:${p.contact_method_id}`;
    if (!reached.has(key)) reached.set(key, p);
  }
  return [...reached.values()];
}

function resolvedJob(incident: Pick<IncidentRecord, 'tenant_id' | 'id'>): JobInput<NotifyJob> {
  return {
    id: `pgr:${incident.id}`,
    body: { kind: 'page_resolved', tenant_id: incident.tenant_id, incident_id: incident.id },
  };
}

/**
 * The hook the incidents consumer and service call with each incident they resolved: queues the
 * job that tells the people its climb paged (none when nobody was paged). A job the queue did not
 * take fails the caller ("nothing acknowledged is ever lost"): the change feed redelivers the
 * recovery (the consumer calls this again for the incident the transition resolved), and a person's
 * resolve answers an error and calls this again when tried again. Queued twice, the job tells
 * nobody twice: each message is claimed in the page log (resolution.ts).
 */
export const resolvedOnQueue =
  (table: Table, queue: Pick<JobQueue<NotifyJob>, 'enqueue'>, logger: Logger) =>
  async (record: IncidentRecord): Promise<void> => {
    if (reachedBy(await readPages(table, record.tenant_id, record.id)).length === 0) return;
    const { failed } = await queue.enqueue([resolvedJob(record)]);
    if (failed.length === 0) return;
    logger.error('resolution not queued for the people paged', { incident_id: record.id });
    throw new Error(`the resolution of ${record.id} was not queued for the people paged`);
  };
