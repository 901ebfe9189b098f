import {
  acknowledgedIncidentOf,
  getIncident,
  INCIDENT_ENTITY,
  type IncidentRecord,
  incidentIdOf,
} from '../../incidents/incident-items.ts';
import type { JobInput, JobQueue } from '../../platform/job-queue.ts';
import type { Logger } from '../../platform/logger.ts';
import type { ChangeConsumer } from '../../store/change-feed.ts';
import type { ChannelRecord } from '../items/channel-items.ts';
import { type DeliveryRecord, readEntityDeliveriesBetween } from '../items/delivery-items.ts';
import type { Acknowledgement, SendOutcome } from '../items/ports.ts';
import type { NotifyJob } from '../jobs.ts';
import { type NotifyDeps, newDelivery, storeAndDispatch } from './notify-deps.ts';

/**
 * An incident acknowledged in Vigil, told to the providers that track incidents (issue 38: a
 * PagerDuty or Opsgenie channel acknowledges its alert too). The `acknowledge` job finds the
 * channels that were sent the incident's alert, repeats or escalations (delivery records of its
 * opening transition) and gives each whose type can acknowledge one `acknowledge` delivery: a
 * record in the delivery log, sent and retried by the `deliver` job like any other. Its id derives
 * from the transition, the channel and the kind, so a redelivered job stores and sends nothing twice.
 */

type AcknowledgeJob = Extract<NotifyJob, { kind: 'acknowledge' }>;

/** Delivery records one job reads at most (as an incident's timeline). */
const MAX_SCANNED = 5000;
/** What counts as "the channel was told of the incident": anything but a skip or a fold. */
const TOLD: ReadonlySet<DeliveryRecord['status']> = new Set(['pending', 'retrying', 'sent', 'failed']);

/** The job enqueued when an incident is acknowledged. */
function acknowledgeJob(incident: Pick<IncidentRecord, 'tenant_id' | 'id'>): JobInput<NotifyJob> {
  return {
    id: `ack:${incident.id}`,
    body: { kind: 'acknowledge', tenant_id: incident.tenant_id, incident_id: incident.id },
  };
}

/**
 * The change-feed records the consumer below reads: an incident's write that gives it a new change
 * entry (gsi2), as an acknowledgement does. The cloud's stream filter passes only acknowledgements
 * (infra/change-feed.ts: open before, acknowledged after).
 */
export const ACKNOWLEDGE_STREAM = { entity: INCIDENT_ENTITY, gsi2Moves: true } as const;

/**
 * Queues the job that tells the channels, from the change feed (issue 75): an acknowledgement is
 * acknowledged to its caller once the incident's write commits, and the feed delivers that write
 * until its job is queued (a queue that refuses fails the batch, which comes again). A redelivered
 * record queues the job again, whose deliveries have derived ids: nothing is told twice.
 */
export function createAcknowledgeConsumer(deps: {
  queue: JobQueue<NotifyJob>;
  logger: Logger;
}): ChangeConsumer {
  return async (changes) => {
    const jobs = changes.flatMap((change) => {
      const incident = acknowledgedIncidentOf(change);
      return incident ? [acknowledgeJob(incident)] : [];
    });
    if (jobs.length === 0) return;
    const { failed } = await deps.queue.enqueue(jobs);
    if (failed.length === 0) return;
    deps.logger.warn('acknowledgements not queued for their channels; the feed redelivers them', {
      jobs: failed.length,
    });
    throw new Error(`${failed.length} acknowledgement job(s) could not be queued`);
  };
}

/** Handles one `acknowledge` job: one pending delivery per channel of the incident that can acknowledge. */
export async function handleAcknowledge(deps: NotifyDeps, job: AcknowledgeJob): Promise<void> {
  const incident = await getIncident(deps.table, job.tenant_id, job.incident_id);
  if (!incident?.acknowledged_at) return;
  const read = await readEntityDeliveriesBetween(deps.table, incident.tenant_id, {
    entityId: incident.entity_id,
    fromMs: Date.parse(incident.opened_at),
    toMs: Math.max(deps.clock.now(), Date.parse(incident.acknowledged_at)),
    maxScanned: MAX_SCANNED,
  });
  const told = new Map<string, DeliveryRecord>();
  for (const record of read.deliveries) {
    if (record.transition_id !== incident.opening_transition_id || !record.channel_id) continue;
    if (record.kind === 'acknowledge' || !TOLD.has(record.status) || told.has(record.channel_id)) continue;
    told.set(record.channel_id, record);
  }
  const records: DeliveryRecord[] = [];
  for (const [channelId, record] of told) {
    const channel = await deps.channels.get(
      record.channel_check_id ?? record.check_id,
      channelId,
      incident.tenant_id,
    );
    if (!channel || !deps.senders.acknowledges?.(channel)) continue;
    records.push(
      newDelivery(
        {
          event: record.event,
          channel,
          kind: 'acknowledge',
          seq: 'ack',
          timeMs: Date.parse(incident.acknowledged_at),
        },
        deps.clock.now(),
      ),
    );
  }
  await storeAndDispatch(deps, records);
}

/** One attempt of an `acknowledge` delivery: the incident's acknowledgement as its channel's provider takes it. */
export async function sendAcknowledgement(
  deps: NotifyDeps,
  channel: ChannelRecord,
  record: DeliveryRecord,
): Promise<SendOutcome> {
  // The record carries the incident's opening event: the incident's id derives from it.
  const incidentId = incidentIdOf(record.event.transition_id);
  const incident = await getIncident(deps.table, record.tenant_id, incidentId);
  if (!deps.senders.acknowledge || !incident?.acknowledged_at)
    return { ok: false, status_code: null, error: 'the incident or its acknowledgement is gone' };
  const ack: Acknowledgement = {
    deliveryId: record.id,
    incidentId,
    entity: { id: incident.entity_id, name: incident.entity_name },
    by: incident.acknowledged_by ?? 'unknown',
    at: incident.acknowledged_at,
  };
  return deps.senders.acknowledge(channel, ack);
}
