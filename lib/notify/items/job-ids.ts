/** The notify queue's job ids (the scheme jobs.ts describes): each keys a redelivery to the same effect. */

/** The `event` job of a transition. */
export const eventJobId = (transitionId: string) => `evt:${transitionId}`;

/** The re-evaluation of a held-back alert once `upstreamTransitionId` (the upstream's recovery) happened. */
export const afterUpstreamJobId = (transitionId: string, upstreamTransitionId: string) =>
  `evt:${transitionId}:after:${upstreamTransitionId}`;

/** The `also_failing` job of a check transition into failing (also-failing-alert.ts). */
export const alsoFailingJobId = (checkTransitionId: string) => `also:${checkTransitionId}`;

/** The `deliver` job of a delivery record. */
export const deliverJobId = (deliveryId: string) => `dlv:${deliveryId}`;

/** The `deliver` job of the `n`th retry asked through the API. */
export const retryJobId = (deliveryId: string, n: number) => `dlv:${deliveryId}:retry:${n}`;

/** The `repeat` job of the `seq`th re-send of a transition. */
export const repeatJobId = (transitionId: string, seq: number) => `rep:${transitionId}:${seq}`;

/** The look at a maintenance-skipped alert when window `windowId` ends at `endsMs`. */
export const maintenanceEndJobId = (transitionId: string, windowId: string, endsMs: number) =>
  `mnt:${transitionId}:${windowId}:${Math.ceil(endsMs / 1000)}`;

/** The re-evaluation of a maintenance-skipped alert once window `windowId` ended at `endsMs`. */
export const afterMaintenanceJobId = (transitionId: string, windowId: string, endsMs: number) =>
  `evt:${transitionId}:mnt:${windowId}:${Math.ceil(endsMs / 1000)}`;

/** One route's escalation of an incident (escalation.ts). */
export const escalateJobId = (incidentId: string, routeId: string) => `esc:${incidentId}:${routeId}`;

/** The flush of one batch of a channel's group (pipeline/digest.ts). */
export const digestJobId = (batchId: string) => `dig:${batchId}`;
/** One route's escalation of an incident whose alert was held back, counted from its release (escalation.ts). */
export const escalateAfterUpstreamJobId = (
  incidentId: string,
  routeId: string,
  upstreamTransitionId: string,
) => `esc:${incidentId}:${routeId}:after:${upstreamTransitionId}`;

/** The send of a recovery the cooldown deferred (deferred-recovery.ts). */
export const recoveryDueJobId = (transitionId: string) => `rcv:${transitionId}`;
/** The settle look of a flapping check due at `dueMs` (flapping.ts); a change re-arms it under a new id. */
export const flapSettleJobId = (checkId: string, dueMs: number) => `flap:${checkId}:${dueMs}`;

/** The look at an entity's truth when a hold ends at `dueMs` (rejudge.ts). */
export const rejudgeJobId = (entityId: string, dueMs: number) => `rj:${entityId}:${Math.ceil(dueMs / 1000)}`;

/** The time encoded in a ULID-shaped id (`trn_...`), or undefined for another shape. */
export function idTimeMs(id: string): number | undefined {
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

/** The first step of the policy a route gives an incident (policy-climbs.ts); a released alert's names the upstream's recovery. */
export const climbStartJobId = (incidentId: string, routeId: string, afterUpstream?: string) =>
  `clb:${incidentId}:${routeId}${afterUpstream ? `:after:${afterUpstream}` : ''}`;
