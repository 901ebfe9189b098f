import { readEntityById } from '../../catalog/entities.ts';
import type { StateChangeEvent } from '../../domain/states.ts';
import { coveringIncident } from '../../incidents/root-cause.ts';
import { maintenanceLookup } from '../../maintenance/evaluate.ts';
import type { JobInput } from '../../platform/job-queue.ts';
import { repeatJobId } from '../items/job-ids.ts';
import type { PolicyRecord } from '../items/policy-items.ts';
import { channelsForEvent, eventRouting } from '../items/route-channels.ts';
import type { NotifyJob } from '../jobs.ts';
import { delayedJob, waitedAnotherHop } from './due-jobs.ts';
import { deliverToEach, effectivePolicy, enqueueAll, type NotifyDeps } from './notify-deps.ts';
import { isDownState } from './upstream.ts';

/**
 * Repeats: while an entity stays down with the same transition and its check's policy asks for it,
 * every channel gets the alert again each `repeat_interval_seconds`. A `repeat` job waits for its
 * time in hops of at most 15 minutes (the longest queue delay); when due it stops on recovery, on
 * silence, when the policy changed since the series began, or when the entity's open incident was
 * acknowledged (someone is on it); it is logged skipped while a maintenance window covers the entity.
 */

type RepeatJob = Extract<NotifyJob, { kind: 'repeat' }>;

function repeatJob(
  body: RepeatJob,
  nowMs: number,
  id = repeatJobId(body.event.transition_id, body.seq),
): JobInput<NotifyJob> {
  return delayedJob(body, nowMs, id);
}

/** The first repeat of an alert for a change to down or degraded (the policy asks for repeats). */
export function firstRepeat(
  event: StateChangeEvent,
  policy: PolicyRecord,
  nowMs: number,
): JobInput<NotifyJob> {
  return repeatJob(
    {
      kind: 'repeat',
      event,
      seq: 1,
      policy_revision: policy.revision,
      due_ms: nowMs + policy.repeat_interval_seconds * 1000,
    },
    nowMs,
  );
}

/** Handles one `repeat` job; throws to have it retried. */
export async function handleRepeat(deps: NotifyDeps, job: RepeatJob): Promise<void> {
  const nowMs = deps.clock.now();
  if (await waitedAnotherHop(deps, job, repeatJobId(job.event.transition_id, job.seq), nowMs)) return;
  const { event } = job;
  const entity = await readEntityById(deps.table, event.tenant_id, event.entity_id);
  if (!entity || !isDownState(entity.state) || entity.last_transition_id !== event.transition_id) return;
  const policy = await effectivePolicy(deps, event.tenant_id, event.check_id);
  if (policy.silenced || policy.revision !== job.policy_revision || policy.repeat_interval_seconds <= 0)
    return;
  // Its own open incident, or its root cause's it joined (one incident per root cause): acknowledged, the series stops.
  const incident = await coveringIncident(deps.table, event.tenant_id, event.entity_id);
  if (incident?.state === 'acknowledged') return;

  const [own, routing, maintenanceOf] = await Promise.all([
    deps.channels.listForCheck(event.check_id),
    eventRouting(deps.table, event, entity.blueprint_slug),
    maintenanceLookup(deps.table, deps.clock, event.tenant_id),
  ]);
  const channels = await channelsForEvent(deps, event, own, routing);
  // During a maintenance window a repeat is logged skipped; the series goes on after it.
  const maintenance = await maintenanceOf({ id: event.entity_id, blueprint_slug: entity.blueprint_slug });
  const skipped = maintenance ? { skipped: `maintenance: ${maintenance.name}` } : {};
  const spec = { event, kind: 'repeat', seq: String(job.seq), timeMs: job.due_ms, ...skipped } as const;
  await deliverToEach(deps, channels, spec, nowMs);
  // The next one counts from this one's due time, so a late run does not push the series back.
  const dueMs = Math.max(job.due_ms + policy.repeat_interval_seconds * 1000, nowMs + 1000);
  await enqueueAll(deps, [repeatJob({ ...job, seq: job.seq + 1, due_ms: dueMs }, nowMs)]);
}
