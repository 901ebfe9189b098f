import type { StateChangeEvent } from '../../domain/states.ts';
import { opensIncident, opensIncidentIfNoneOpen } from '../../incidents/incident-consumer.ts';
import { incidentIdOf } from '../../incidents/incident-items.ts';
import type { JobInput } from '../../platform/job-queue.ts';
import { climbStartJobId } from '../items/job-ids.ts';
import type { EventRouting } from '../items/route-channels.ts';
import { needsBlueprint, routeMatches } from '../items/route-match.ts';
import type { NotifyJob } from '../jobs.ts';

/**
 * The start of the escalation policies an incident climbs (DECISIONS.md "On-call (wave 5)"): for
 * an event that opens an incident, one `climb` job per matching route that names a policy or pages
 * its owner team's, due now (its first step pages at once). The climb itself is lib/escalation's
 * (climb.ts), handed to the notifier by the runtime's composition. Scheduled where escalations
 * are (flow.ts), so a held-back alert starts its climb when it is released (`afterUpstream`).
 */
export async function policyClimbJobs(
  event: StateChangeEvent,
  routing: EventRouting,
  nowMs: number,
  afterUpstream?: string,
): Promise<JobInput<NotifyJob>[]> {
  if (!(opensIncident(event) || opensIncidentIfNoneOpen(event))) return [];
  const paging = routing.routes.filter((r) => r.escalation_policy_id !== null || r.page_owner_policy);
  if (paging.length === 0) return [];
  const subject = {
    entity_id: event.entity_id,
    blueprint_slug: needsBlueprint(paging) ? await routing.blueprint() : '',
    to_state: event.to_state,
  };
  const incidentId = incidentIdOf(event.transition_id);
  return paging
    .filter((route) => routeMatches(route.match, subject))
    .map((route) => ({
      id: climbStartJobId(incidentId, route.id, afterUpstream),
      body: {
        kind: 'climb',
        event,
        incident_id: incidentId,
        route_id: route.id,
        policy_id: route.escalation_policy_id,
        round: 0,
        step: 0,
        due_ms: nowMs,
      },
    }));
}
