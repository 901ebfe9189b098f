import { type EntityState, readEntityById } from '../../catalog/entities.ts';
import type { StateChangeEvent } from '../../domain/states.ts';
import type { JobInput } from '../../platform/job-queue.ts';
import { afterUpstreamJobId, idTimeMs } from '../items/job-ids.ts';
import { channelsForEvent } from '../items/route-channels.ts';
import type { NotifyJob } from '../jobs.ts';
import { deferredReason, recoveryDueJob } from './deferred-recovery.ts';
import { rejudgeJob } from './due-jobs.ts';
import { escalationJobs } from './escalation.ts';
import { flapDecision } from './flapping.ts';
import { readAlertContext } from './job-context.ts';
import { maintenanceEndJob } from './maintenance-end.ts';
import {
  type DeliverySpec,
  enqueueAll,
  type NotifyDeps,
  newDelivery,
  storeAndDispatch,
} from './notify-deps.ts';
import { policyClimbJobs } from './policy-climbs.ts';
import { truthChannels } from './rejudge.ts';
import { firstRepeat } from './repeat.ts';
import { type AlertVerdict, channelDecisions, runStages } from './stages.ts';
import { alertHeldBackOps, heldBackBy, heldBackReleasedOp } from './suppressed-alert-items.ts';
import { isDownState } from './upstream.ts';

/**
 * The `event` job: one state change evaluated against its check's policy in SPEC.md's order
 * (DECISIONS.md "Notifications", "Alert model (wave 4)"). Every skip is logged as a `skipped`
 * record per channel with its reason; a recovery inside the cooldown as a `deferred` one, sent at
 * the cooldown's end (deferred-recovery.ts); otherwise each channel gets a pending record and a
 * `deliver` job. Record ids are deterministic, so a redelivered job stores and sends nothing twice.
 */

type EventJob = Extract<NotifyJob, { kind: 'event' }>;

/**
 * The side effects of a verdict: a down skipped for a window gets one look when it ends; a held
 * alert is marked under its upstreams; every hold with an end (a window, the cooldown) leaves a
 * look at the entity's truth then (rejudge.ts), so what it held is told if it is still true.
 */
async function actOnVerdict(deps: NotifyDeps, event: StateChangeEvent, verdict: AlertVerdict | undefined) {
  const nowMs = deps.clock.now();
  const target = { tenant_id: event.tenant_id, entity_id: event.entity_id };
  // A down skipped now gets one look when the window ends (maintenance-end.ts).
  if (verdict?.maintenance && isDownState(event.to_state))
    await enqueueAll(deps, [maintenanceEndJob(event, verdict.maintenance, nowMs)]);
  // Any other change the window skipped (a recovery) is told at its end if a channel's word differs.
  if (verdict?.maintenance && !isDownState(event.to_state))
    await enqueueAll(deps, [rejudgeJob(target, verdict.maintenance.endsMs, 'maintenance', nowMs)]);
  // (A recovery the cooldown defers is sent at its end by its own job: deferred-recovery.ts.)
  if (verdict?.step === 'cooldown' && verdict.outcome === 'skip' && verdict.dueMs !== undefined)
    await enqueueAll(deps, [rejudgeJob(target, verdict.dueMs, 'cooldown', nowMs)]);
  if (verdict?.upstreams)
    await deps.table.transact(
      alertHeldBackOps(
        event,
        verdict.upstreams.map((up) => up.id),
      ),
    );
}

/** Releases the alerts held back while this entity was down: each is evaluated again in full. */
async function releaseHeldBack(deps: NotifyDeps, event: StateChangeEvent): Promise<void> {
  const markers = await heldBackBy(deps.table, event.tenant_id, event.entity_id);
  const nowMs = deps.clock.now();
  for (const marker of markers) {
    const held = marker.event;
    const dependent = await readEntityById(deps.table, held.tenant_id, held.entity_id);
    const current =
      dependent && isDownState(dependent.state) && dependent.last_transition_id === held.transition_id;
    // Still current: evaluated again in full; otherwise the dependent's state now is told if a
    // channel's last word differs (a newer change it made while held).
    const job: JobInput<NotifyJob> = current
      ? {
          id: afterUpstreamJobId(held.transition_id, event.transition_id),
          body: { kind: 'event', event: held, after_upstream: event.transition_id },
        }
      : rejudgeJob({ tenant_id: held.tenant_id, entity_id: held.entity_id }, nowMs, 'upstream', nowMs);
    await enqueueAll(deps, [job]);
    await deps.table.transact([heldBackReleasedOp(marker)]);
  }
}

/**
 * One change through the stages (stages.ts) over its context read once (job-context.ts): the
 * entity, the policy, the check's channels, the tenant's routes and each channel's last word side
 * by side, the rest when a stage asks. The change counts in the check's flap history; while
 * flapping it is held (flapping.ts).
 */
export async function judgeChange(
  deps: NotifyDeps,
  event: StateChangeEvent,
  entity?: { known: EntityState | undefined },
) {
  const ctx = await readAlertContext(deps, event, {
    nowMs: deps.clock.now(),
    ...(entity ? { entity } : {}),
    flapping: (c) => flapDecision(deps, c),
  });
  const reached = await channelsForEvent(deps, event, ctx.own, ctx.routing);
  return { ctx, reached, verdict: await runStages(ctx) };
}

/** Handles one `event` job; throws to have it retried. */
export async function handleEvent(deps: NotifyDeps, job: EventJob): Promise<void> {
  const { event } = job;
  if (event.to_state === 'up') await releaseHeldBack(deps, event);

  const { ctx, reached, verdict } = await judgeChange(deps, event);
  const { policy, routing } = ctx;
  // The channels the change reaches, and every channel told anything of the entity (its last word must follow).
  const channels = await truthChannels(deps, event, ctx.told, reached);
  await actOnVerdict(deps, event, verdict);
  // The incident this event opens escalates whatever happens to the alert itself (escalation.ts),
  // except while it is held back behind a down upstream: inhibition holds, and the release (an
  // after_upstream job that is not held again) schedules it from then, as for a fresh alert.
  const nowMs = deps.clock.now();
  if (!verdict?.upstreams && !job.after_maintenance) {
    const from = job.after_upstream ? { fromMs: nowMs, afterUpstream: job.after_upstream } : undefined;
    await enqueueAll(deps, await escalationJobs(event, routing, nowMs, from));
    // The escalation policies its routes name start climbing (lib/escalation pages the people).
    await enqueueAll(deps, await policyClimbJobs(event, routing, nowMs, job.after_upstream));
  }
  const after = job.after_maintenance;
  const seq = after
    ? `maint:${after.window_id}:${after.ends_ms}`
    : job.after_upstream
      ? `after:${job.after_upstream}`
      : '0';
  const timeMs =
    after?.ends_ms ?? ((job.after_upstream && idTimeMs(job.after_upstream)) || Date.parse(event.timestamp));
  const base: Omit<DeliverySpec, 'channel'> = { event, kind: 'alert', seq, timeMs };

  const decisions = channelDecisions(verdict, channels);
  const records = decisions.map(({ channel, outcome, reason, dueMs }) => {
    if (outcome === 'send') return newDelivery({ ...base, channel }, deps.clock.now());
    // A recovery the cooldown defers is logged `deferred` on each channel and sent at its end by a
    // recovery_due job (deferred-recovery.ts); with no channel to defer to it logs "no channels".
    if (outcome === 'defer' && dueMs !== undefined)
      return channel
        ? newDelivery({ ...base, channel, deferred: deferredReason(dueMs) }, deps.clock.now())
        : newDelivery({ ...base, channel, skipped: 'no channels' }, deps.clock.now());
    return newDelivery({ ...base, channel, skipped: reason ?? outcome }, deps.clock.now());
  });
  await storeAndDispatch(deps, records, { words: ctx.words, grouping: ctx.grouping });
  const deferredTo = decisions.find((d) => d.outcome === 'defer' && d.channel)?.dueMs;
  if (deferredTo !== undefined) await enqueueAll(deps, [recoveryDueJob(event, deferredTo, deps.clock.now())]);
  if (decisions.some((d) => d.outcome !== 'send')) {
    deps.logger.debug('alert skipped', { transition_id: event.transition_id, reason: decisions[0]?.reason });
    return;
  }
  if (isDownState(event.to_state) && policy.repeat_interval_seconds > 0) {
    await enqueueAll(deps, [firstRepeat(event, policy, deps.clock.now())]);
  }
}
