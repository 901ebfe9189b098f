import { readEntityById } from '../catalog/entity-items.ts';
import type { StateChangeEvent } from '../domain/state-change-event.ts';
import { opensIncident } from '../incidents/incident-consumer.ts';
import { incidentIdOf, readOpenIncident } from '../incidents/incident-items.ts';
import { activeMaintenanceFor } from '../maintenance/evaluate.ts';
import { delaySecondsFor, type JobInput, MAX_DELAY_SECONDS } from '../platform/job-queue.ts';
import { channelSeenFrom } from './channel-store.ts';
import { escalateJobId } from './job-ids.ts';
import type { NotifyJob } from './jobs.ts';
import {
  effectivePolicy,
  enqueueAll,
  type NotifyDeps,
  newDelivery,
  storeAndDispatch,
} from './notify-deps.ts';
import { listRoutes } from './route-items.ts';
import { escalationTargets } from './route-match.ts';

/**
 * Escalation (DECISIONS.md "Operations features (wave 3)"): an incident still open (neither
 * acknowledged nor resolved) `escalate_after_seconds` after it opened is sent once to the
 * escalation channels of each matching route that has them.
 *
 * Scheduled by the `event` job of the transition that opens the incident (flow.ts), not by the
 * incident consumer: the event job runs on the notify queue in both runtimes, and lib/incidents
 * cannot reach the notify queue without a folder cycle (lib/notify reads incidents). The incident's
 * id is derived from that transition (incidentIdOf), so nothing waits for the incident to be
 * stored. One `escalate` job per route (id incident + route) waits in hops of at most 15 minutes as
 * repeats do; when due it reads the entity's open incident, and only if it is that incident and
 * still `open` does it store one `escalation` record per channel. A record's id is derived from the
 * incident's opening transition and the channel alone (its time part is the opening, the same for
 * every route), so a channel named by two routes, or a redelivered job, gets one record and one send.
 * Acknowledged or resolved before due: nothing is stored (the timeline shows the acknowledgement or
 * resolution instead). A maintenance window covering the entity then, or a silenced policy, logs
 * the records `skipped` with the reason; the escalation is not tried again afterwards.
 */

type EscalateJob = Extract<NotifyJob, { kind: 'escalate' }>;

function escalateJob(body: EscalateJob, nowMs: number, id: string): JobInput<NotifyJob> {
  return { id, body, delaySeconds: delaySecondsFor(body.due_ms, nowMs) };
}

/** The `escalate` jobs of an event that opens an incident (none for any other event, or without routes that escalate). */
export async function escalationJobs(
  deps: NotifyDeps,
  event: StateChangeEvent,
  nowMs: number,
): Promise<JobInput<NotifyJob>[]> {
  if (!opensIncident(event)) return [];
  // Most tenants have no escalating route: one read of the routes, and the entity is not read.
  const routes = await listRoutes(deps.table, event.tenant_id);
  if (!routes.some((r) => r.escalate_after_seconds !== null && r.escalate_channel_ids.length > 0)) return [];
  const entity = await readEntityById(deps.table, event.tenant_id, event.entity_id);
  const targets = await escalationTargets(
    deps.table,
    event.tenant_id,
    { id: event.entity_id, blueprint_slug: entity?.blueprint_slug ?? '' },
    event.to_state,
  );
  const incidentId = incidentIdOf(event.transition_id);
  const openedMs = Date.parse(event.timestamp);
  return targets.map((target) =>
    escalateJob(
      {
        kind: 'escalate',
        event,
        incident_id: incidentId,
        route_id: target.route_id,
        due_ms: openedMs + target.escalate_after_seconds * 1000,
      },
      nowMs,
      escalateJobId(incidentId, target.route_id),
    ),
  );
}

/** Handles one `escalate` job; throws to have it retried. */
export async function handleEscalate(deps: NotifyDeps, job: EscalateJob): Promise<void> {
  const nowMs = deps.clock.now();
  const { event } = job;
  const baseId = escalateJobId(job.incident_id, job.route_id);
  if (job.due_ms > nowMs) {
    // Not yet due (a delay is at most 15 minutes): wait another hop, under an id naming where it lands.
    const landsMs = Math.min(job.due_ms, nowMs + MAX_DELAY_SECONDS * 1000);
    await enqueueAll(deps, [escalateJob(job, nowMs, `${baseId}:hop:${Math.ceil(landsMs / 1000)}`)]);
    return;
  }
  const incident = await readOpenIncident(deps.table, event.tenant_id, event.entity_id);
  if (incident?.id !== job.incident_id || incident.state !== 'open') {
    deps.logger.debug('escalation not sent: the incident was acknowledged or resolved', {
      incident_id: job.incident_id,
      route_id: job.route_id,
    });
    return;
  }
  // The route as it is now: deleted, or no longer escalating or matching, it escalates nothing.
  const entity = await readEntityById(deps.table, event.tenant_id, event.entity_id);
  const targets = await escalationTargets(
    deps.table,
    event.tenant_id,
    { id: event.entity_id, blueprint_slug: entity?.blueprint_slug ?? '' },
    event.to_state,
  );
  const target = targets.find((t) => t.route_id === job.route_id);
  if (!target) return;
  const channels = await deps.channels.getSharedMany(event.tenant_id, target.channel_ids);
  if (channels.length === 0) return;

  const maintenance = await activeMaintenanceFor(deps.table, deps.clock, event.tenant_id, event.entity_id);
  const policy = maintenance ? undefined : await effectivePolicy(deps, event.tenant_id, event.check_id);
  const reason = maintenance ? `maintenance: ${maintenance.name}` : policy?.silenced ? 'silenced' : undefined;
  const skipped = reason === undefined ? {} : { skipped: reason };
  // seq and time are the incident's alone (not the route's): one record per incident and channel.
  const records = channels.map((channel) =>
    newDelivery(
      {
        event,
        channel: channelSeenFrom(channel, event.check_id),
        kind: 'escalation',
        seq: job.incident_id,
        timeMs: Date.parse(event.timestamp),
        ...skipped,
      },
      nowMs,
    ),
  );
  await storeAndDispatch(deps, records);
}
