import { getIncident, type IncidentRecord } from '../incidents/incident-items.ts';
import type { NotifyJob } from '../notify/jobs.ts';
import { isoTime } from '../platform/clock.ts';
import { type PageRecord, readPages, takePage } from './page-items.ts';
import { resolutionMessage } from './page-message.ts';
import { type ComeBack, comeBackIfAsked, latest, type PagingDeps, sendTaken } from './page-person.ts';
import { RESOLVED, reachedBy } from './resolution-hook.ts';
import { personZone } from './targets.ts';

/**
 * Tells the people an incident's climb paged that it is over (resolution-hook.ts says when and
 * how): the `page_resolved` job, one claimed message per person and contact method.
 */

type ResolvedJob = Extract<NotifyJob, { kind: 'page_resolved' }>;

/** Handles one `page_resolved` job: each person a page reached is told by that method, once. */
export async function handlePageResolved(deps: PagingDeps, job: ResolvedJob): Promise<void> {
  const incident = await getIncident(deps.table, job.tenant_id, job.incident_id);
  if (incident?.state !== 'resolved') {
    deps.logger.info('resolution not told: the incident is not resolved', { incident_id: job.incident_id });
    return;
  }
  const asks: ComeBack[] = [];
  for (const reached of reachedBy(await readPages(deps.table, job.tenant_id, job.incident_id)))
    asks.push(await tell(deps, incident, reached));
  comeBackIfAsked(latest(asks), 'resolution');
}

/** Tells one person by one method that the incident is over, claimed first. */
async function tell(deps: PagingDeps, incident: IncidentRecord, reached: PageRecord): Promise<ComeBack> {
  const userId = reached.user_id ?? '';
  const methodId = reached.contact_method_id ?? '';
  const nowMs = deps.clock.now();
  const { taken_at: _first, ...page } = reached;
  const record: PageRecord = {
    ...page,
    key: `${RESOLVED}u:${userId}:${methodId}`,
    target: { type: 'resolution', id: incident.id },
    at: isoTime(nowMs),
    outcome: 'pending',
    error: null,
    attempts: 1,
  };
  const take = await takePage(deps.table, record, nowMs);
  if (!take.taken) return take.retryInSeconds;
  const zone = await personZone(deps.table, incident.tenant_id, userId, reached.target);
  const message = resolutionMessage(incident, zone, {
    publicUrl: deps.publicUrl,
    deliveryId: `${incident.id}:${record.key}`,
  });
  return sendTaken(deps, record, take.attempt, message);
}
