import { readEntityById } from '../../catalog/entities.ts';
import type { StateChangeEvent } from '../../domain/states.ts';
import { opensIncident, opensIncidentIfNoneOpen } from '../../incidents/incident-consumer.ts';
import { incidentIdOf, readOpenIncident } from '../../incidents/incident-items.ts';
import { maintenanceLookup } from '../../maintenance/evaluate.ts';
import type { JobInput } from '../../platform/job-queue.ts';
import { channelSeenFrom } from '../items/channel-store.ts';
import { escalateAfterUpstreamJobId, escalateJobId } from '../items/job-ids.ts';
import { type EventRouting, eventRouting } from '../items/route-channels.ts';
import { anyEscalates, escalationTargetsIn } from '../items/route-match.ts';
import type { NotifyJob } from '../jobs.ts';
import { delayedJob, waitedAnotherHop } from './due-jobs.ts';
import {
  effectivePolicy,
  enqueueAll,
  type NotifyDeps,
  newDelivery,
  storeAndDispatch,
} from './notify-deps.ts';
import { truthEvent } from './rejudge.ts';
import { isHeldBack } from './suppressed-alert-items.ts';
import { downUpstreams } from './upstream.ts';

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
 * resolution instead). A maintenance window covering the entity when it is due logs the records
 * `skipped` with the reason (under their own ids, naming the window's run) and postpones the
 * escalation to the window's end: still open then, it is sent (a window that quiets an entity
 * quiets its escalation for that long, not for good). A silenced policy logs them `skipped` for
 * good, as it does every alert of the check: silence is the operator's open-ended choice.
 */

type EscalateJob = Extract<NotifyJob, { kind: 'escalate' }>;

/** The base id of an escalate job (its hops add to it). */
const baseIdOf = (job: Pick<EscalateJob, 'incident_id' | 'route_id' | 'after_upstream'>) =>
  job.after_upstream
    ? escalateAfterUpstreamJobId(job.incident_id, job.route_id, job.after_upstream)
    : escalateJobId(job.incident_id, job.route_id);

/**
 * The `escalate` jobs of an event that opens an incident (none for any other event, or without
 * routes that escalate). An alert held back behind a down upstream gets none (flow.ts: inhibition
 * holds); when it is released (`from`: the release's time and the upstream's recovery), its
 * escalation counts from then, as for a fresh alert.
 */
export async function escalationJobs(
  event: StateChangeEvent,
  routing: EventRouting,
  nowMs: number,
  from?: { fromMs: number; afterUpstream: string },
): Promise<JobInput<NotifyJob>[]> {
  // Most tenants have no escalating route: the entity's blueprint is then not read.
  // A change into down from unknown or degraded opens one only when none is open: its job then finds
  // the entity's open incident is another and sends nothing (that one's own escalation does).
  if (!(opensIncident(event) || opensIncidentIfNoneOpen(event)) || !anyEscalates(routing.routes)) return [];
  const targets = escalationTargetsIn(routing.routes, {
    entity_id: event.entity_id,
    blueprint_slug: await routing.blueprint(),
    to_state: event.to_state,
  });
  const incidentId = incidentIdOf(event.transition_id);
  const startMs = from?.fromMs ?? Date.parse(event.timestamp);
  return targets.map((target) => {
    const body: EscalateJob = {
      kind: 'escalate',
      event,
      incident_id: incidentId,
      route_id: target.route_id,
      due_ms: startMs + target.escalate_after_seconds * 1000,
      ...(from ? { after_upstream: from.afterUpstream } : {}),
    };
    return delayedJob(body, nowMs, baseIdOf(body));
  });
}

/** The entity's state now as a change from the incident's opening state, or the opening change when it is still current. */
async function currentEvent(deps: NotifyDeps, event: StateChangeEvent): Promise<StateChangeEvent> {
  const entity = await readEntityById(deps.table, event.tenant_id, event.entity_id);
  if (!entity || entity.last_transition_id === event.transition_id) return event;
  const truth = await truthEvent(deps, event.tenant_id, entity);
  return truth ? { ...truth, from_state: event.from_state } : event;
}

/** Handles one `escalate` job; throws to have it retried. */
export async function handleEscalate(deps: NotifyDeps, job: EscalateJob): Promise<void> {
  const nowMs = deps.clock.now();
  const { event } = job;
  const baseId = baseIdOf(job);
  if (await waitedAnotherHop(deps, job, baseId, nowMs)) return;
  const incident = await readOpenIncident(deps.table, event.tenant_id, event.entity_id);
  if (incident?.id !== job.incident_id || incident.state !== 'open') {
    deps.logger.debug('escalation not sent: the incident was acknowledged or resolved', {
      incident_id: job.incident_id,
      route_id: job.route_id,
    });
    return;
  }
  // Inhibition holds: an alert held back behind a down upstream (held after this job was scheduled,
  // e.g. when a window's end re-evaluated it) does not escalate; its release schedules a fresh one.
  const upstreams = await downUpstreams(deps.table, event.tenant_id, event.entity_id);
  if (
    upstreams.length > 0 &&
    (await isHeldBack(
      deps.table,
      event,
      upstreams.map((up) => up.id),
    ))
  ) {
    deps.logger.debug('escalation not sent: the alert is held back', {
      incident_id: job.incident_id,
      held_by: upstreams[0]?.name,
    });
    return;
  }
  // The route as it is now: deleted, or no longer escalating or matching, it escalates nothing.
  const routing = await eventRouting(deps.table, event);
  const target = escalationTargetsIn(routing.routes, {
    entity_id: event.entity_id,
    blueprint_slug: await routing.blueprint(),
    to_state: event.to_state,
  }).find((t) => t.route_id === job.route_id);
  if (!target) return;
  const channels = await deps.channels.getSharedMany(event.tenant_id, target.channel_ids);
  if (channels.length === 0) return;

  const maintenance = await (await maintenanceLookup(deps.table, deps.clock, event.tenant_id))({
    id: event.entity_id,
    blueprint: routing.blueprint,
  });
  const policy = maintenance ? undefined : await effectivePolicy(deps, event.tenant_id, event.check_id);
  const reason = maintenance ? `maintenance: ${maintenance.name}` : policy?.silenced ? 'silenced' : undefined;
  const skipped = reason === undefined ? {} : { skipped: reason };
  // seq and time are the incident's alone (not the route's): one record per incident and channel.
  // A skip for a window names the window's run, so the escalation sent after it has its own record.
  const seq = maintenance
    ? `${job.incident_id}:maint:${maintenance.id}:${maintenance.endsMs}`
    : job.incident_id;
  // It tells the entity's state now, not the opening change's (a degraded that went down since is
  // escalated as down); the record keeps the id of the incident's escalation on this channel.
  const current = await currentEvent(deps, event);
  const records = channels.map((channel) => ({
    ...newDelivery(
      {
        event,
        channel: channelSeenFrom(channel, event.check_id),
        kind: 'escalation',
        seq,
        timeMs: Date.parse(event.timestamp),
        ...skipped,
      },
      nowMs,
    ),
    event: current,
  }));
  await storeAndDispatch(deps, records);
  if (maintenance) {
    const after = `${baseId}:maint:${maintenance.id}:${maintenance.endsMs}`;
    await enqueueAll(deps, [delayedJob({ ...job, due_ms: maintenance.endsMs }, nowMs, after)]);
  }
}
