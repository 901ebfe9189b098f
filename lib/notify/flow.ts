import { readEntityById } from '../catalog/entity-items.ts';
import { isRecovery, type StateChangeEvent } from '../domain/state-change-event.ts';
import { type ActiveMaintenance, maintenanceLookup } from '../maintenance/evaluate.ts';
import type { JobInput } from '../platform/job-queue.ts';
import type { ChannelRecord } from './channel-items.ts';
import { escalationJobs } from './escalation.ts';
import { flapDecision } from './flapping.ts';
import { afterUpstreamJobId } from './job-ids.ts';
import type { NotifyJob } from './jobs.ts';
import { maintenanceEndJob } from './maintenance-end.ts';
import {
  type DeliverySpec,
  effectivePolicy,
  enqueueAll,
  type NotifyDeps,
  newDelivery,
  storeAndDispatch,
} from './notify-deps.ts';
import { lastSentAtMs } from './notify-state-items.ts';
import type { PolicyRecord } from './policy-items.ts';
import { firstRepeat } from './repeat.ts';
import { channelsForEvent, eventRouting } from './route-channels.ts';
import { alertHeldBackOps, heldBackBy, heldBackReleasedOp } from './suppressed-alert-items.ts';
import { downUpstreams, isDownState } from './upstream.ts';

/**
 * The `event` job: one state change evaluated against its check's policy in SPEC.md's order
 * (DECISIONS.md "Notifications"). Every skip is logged as a `skipped` record per channel with its
 * reason; otherwise each channel gets a pending record and a `deliver` job. Record ids are
 * deterministic, so a redelivered job stores and sends nothing twice.
 */

type EventJob = Extract<NotifyJob, { kind: 'event' }>;

/** The time encoded in a ULID-shaped id (`trn_...`), or undefined for another shape. */
function idTimeMs(id: string): number | undefined {
  const ulid = id.split('_')[1];
  if (ulid?.length !== 26) return undefined;
  let ms = 0;
  for (const char of ulid.slice(0, 10)) {
    const digit = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'.indexOf(char);
    if (digit < 0) return undefined;
    ms = ms * 32 + digit;
  }
  return ms;
}

/** Why the flow stops before sending (the steps before the channels), or undefined to send. */
async function skipReason(
  deps: NotifyDeps,
  event: StateChangeEvent,
  policy: PolicyRecord,
  maintenanceNow: () => Promise<ActiveMaintenance | undefined>,
): Promise<string | undefined> {
  if (event.from_state === 'unknown' && event.to_state === 'up') return 'first result';
  if (policy.silenced) return 'silenced';
  const maintenance = await maintenanceNow();
  if (maintenance) {
    // A down skipped now gets one look when the window ends (maintenance-end.ts).
    if (isDownState(event.to_state))
      await enqueueAll(deps, [maintenanceEndJob(event, maintenance, deps.clock.now())]);
    return `maintenance: ${maintenance.name}`;
  }
  if (isRecovery(event) && !policy.notify_on_recovery) return 'recovery alerts are off';
  // Flapping (issue 35): the change counts in the check's flap history; while flapping it is held.
  const flapping = await flapDecision(deps, event, policy);
  if (flapping) return flapping;
  const lastSent = await lastSentAtMs(deps.table, event.check_id);
  if (lastSent !== undefined && policy.cooldown_seconds > 0) {
    const leftMs = lastSent + policy.cooldown_seconds * 1000 - deps.clock.now();
    if (leftMs > 0) return `cooldown: ${Math.ceil(leftMs / 1000)} s left`;
  }
  if (policy.suppress_when_upstream_down && isDownState(event.to_state)) {
    const upstreams = await downUpstreams(deps.table, event.tenant_id, event.entity_id);
    const first = upstreams[0];
    if (first) {
      await deps.table.transact(
        alertHeldBackOps(
          event,
          upstreams.map((up) => up.id),
        ),
      );
      return `upstream ${first.name} is down`;
    }
  }
  return undefined;
}

/** Releases the alerts held back while this entity was down: each is evaluated again in full. */
async function releaseHeldBack(deps: NotifyDeps, event: StateChangeEvent): Promise<void> {
  const markers = await heldBackBy(deps.table, event.tenant_id, event.entity_id);
  for (const marker of markers) {
    const held = marker.event;
    const dependent = await readEntityById(deps.table, held.tenant_id, held.entity_id);
    if (dependent && isDownState(dependent.state) && dependent.last_transition_id === held.transition_id) {
      const job: JobInput<NotifyJob> = {
        id: afterUpstreamJobId(held.transition_id, event.transition_id),
        body: { kind: 'event', event: held, after_upstream: event.transition_id },
      };
      await enqueueAll(deps, [job]);
    }
    await deps.table.transact([heldBackReleasedOp(marker)]);
  }
}

/** Handles one `event` job; throws to have it retried. */
export async function handleEvent(deps: NotifyDeps, job: EventJob): Promise<void> {
  const { event } = job;
  if (event.to_state === 'up') await releaseHeldBack(deps, event);

  // Each read once, side by side: the policy, the check's channels, the tenant's routes and its
  // maintenance windows (the entity only if a route or an active window asks for its blueprint).
  const [policy, own, routing, maintenanceOf] = await Promise.all([
    effectivePolicy(deps, event.tenant_id, event.check_id),
    deps.channels.listForCheck(event.check_id),
    eventRouting(deps.table, event),
    maintenanceLookup(deps.table, deps.clock, event.tenant_id),
  ]);
  // The incident this event opens escalates whatever happens to the alert itself (escalation.ts).
  if (!job.after_upstream && !job.after_maintenance)
    await enqueueAll(deps, await escalationJobs(event, routing, deps.clock.now()));

  const channels: (ChannelRecord | null)[] = await channelsForEvent(deps, event, own, routing);
  const reason = await skipReason(deps, event, policy, () =>
    maintenanceOf({ id: event.entity_id, blueprint: routing.blueprint }),
  );
  const after = job.after_maintenance;
  const seq = after
    ? `maint:${after.window_id}:${after.ends_ms}`
    : job.after_upstream
      ? `after:${job.after_upstream}`
      : '0';
  const timeMs =
    after?.ends_ms ?? ((job.after_upstream && idTimeMs(job.after_upstream)) || Date.parse(event.timestamp));
  const base: Omit<DeliverySpec, 'channel'> = { event, kind: 'alert', seq, timeMs };

  if (reason !== undefined || channels.length === 0) {
    const skipped = reason ?? 'no channels';
    const targets = channels.length > 0 ? channels : [null];
    const records = targets.map((channel) => newDelivery({ ...base, channel, skipped }, deps.clock.now()));
    await storeAndDispatch(deps, records);
    deps.logger.debug('alert skipped', { transition_id: event.transition_id, reason: skipped });
    return;
  }

  const records = channels.map((channel) => newDelivery({ ...base, channel }, deps.clock.now()));
  await storeAndDispatch(deps, records);
  if (isDownState(event.to_state) && policy.repeat_interval_seconds > 0) {
    await enqueueAll(deps, [firstRepeat(event, policy, deps.clock.now())]);
  }
}
