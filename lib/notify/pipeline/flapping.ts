import { readEntityById } from '../../catalog/entities.ts';
import { applyFlapChange, type FlapPolicy, type StateChangeEvent, settleFlap } from '../../domain/states.ts';
import type { JobInput } from '../../platform/job-queue.ts';
import { OPTIMISTIC_ATTEMPTS, RETRY, withRetries } from '../../store/retry.ts';
import { flapSettleJobId } from '../items/job-ids.ts';
import { POLICY_DEFAULTS, type PolicyRecord } from '../items/policy-items.ts';
import { channelsForEvent } from '../items/route-channels.ts';
import type { NotifyJob } from '../jobs.ts';
import { delayedJob, rejudgeJob, waitedAnotherHop } from './due-jobs.ts';
import { getFlapState, historyOf, putFlapState } from './flap-state-items.ts';
import { type AlertContext, type FlapHold, readAlertContext } from './job-context.ts';
import { deliverToEach, effectivePolicy, enqueueAll, type NotifyDeps } from './notify-deps.ts';
import { firstRepeat } from './repeat.ts';
import { runStages, stagesNamed } from './stages.ts';
import { isDownState } from './upstream.ts';

/**
 * The flapping step of the alert flow (issue 35; DECISIONS.md "Alert model (wave 4)" Flapping).
 * Every alert a check's change would send counts as a change in the check's flap history
 * (flap-state-items.ts); more than `flap_changes` of them within `flap_window_seconds` sends ONE
 * `flapping` notice to the channels the alert would reach, and from then on the check's alerts are
 * logged skipped (`flapping`) until the check has stayed in one state for `flap_settle_seconds`
 * (issue 75; at most the window): a `flap_settle` job, re-armed by each change, then sends one
 * alert with the state the check settled in. A later change inside the window is held and settles
 * the same way, with no second notice; a window without a change ends flapping.
 */

type SettleJob = Extract<NotifyJob, { kind: 'flap_settle' }>;

/** The reason the held alerts are logged with. */
const FLAPPING_REASON = 'flapping';

/** The policy's flap settings, the defaults for a policy stored before they existed. */
function flapPolicyOf(policy: PolicyRecord): FlapPolicy {
  return {
    changes: policy.flap_changes ?? POLICY_DEFAULTS.flap_changes,
    window_seconds: policy.flap_window_seconds ?? POLICY_DEFAULTS.flap_window_seconds,
    settle_seconds: policy.flap_settle_seconds ?? POLICY_DEFAULTS.flap_settle_seconds,
  };
}

function settleJob(
  body: SettleJob,
  nowMs: number,
  id = flapSettleJobId(body.check_id, body.due_ms),
): JobInput<NotifyJob> {
  return delayedJob(body, nowMs, id);
}

/** Sends the `flapping` notice of the change that started it (ids per transition: a redelivery sends nothing twice). */
async function sendNotice(deps: NotifyDeps, ctx: AlertContext): Promise<void> {
  const { event } = ctx;
  const channels = await channelsForEvent(deps, event, ctx.own, ctx.routing);
  const spec = { event, kind: 'flapping', seq: '0', timeMs: Date.parse(event.timestamp) } as const;
  await deliverToEach(deps, channels, spec, deps.clock.now());
}

/**
 * The event job's flap stage for one alert: counts the change and answers the hold (the alert is
 * held until the check settles) or undefined (evaluate on). When flapping starts, sends the notice
 * and arms the settle look.
 */
export async function flapDecision(deps: NotifyDeps, ctx: AlertContext): Promise<FlapHold | undefined> {
  const { event, policy } = ctx;
  const settings = flapPolicyOf(policy);
  const nowMs = deps.clock.now();
  const change = { id: event.transition_id, at_ms: Date.parse(event.timestamp) };
  const step = await withRetries(OPTIMISTIC_ATTEMPTS, 'the flap history', async () => {
    const stored = await getFlapState(deps.table, event.check_id);
    const before = historyOf(stored);
    const applied = applyFlapChange(before, change, nowMs, settings);
    const newer = !stored?.held_event || stored.held_event.timestamp <= event.timestamp;
    const held = applied.outcome === 'pass' ? null : newer ? event : (stored?.held_event ?? event);
    const notice =
      applied.outcome === 'start'
        ? {
            changes: applied.history.changes.length,
            window_seconds: settings.window_seconds,
            transition_id: event.transition_id,
          }
        : applied.outcome === 'hold'
          ? (stored?.notice ?? null)
          : null;
    const next = {
      tenant_id: event.tenant_id,
      check_id: event.check_id,
      ...applied.history,
      notice,
      held_event: held,
    };
    // Nothing to store (detection off, no history yet) or nothing moved (a redelivered change).
    const same = stored
      ? JSON.stringify({ ...stored, version: 0 }) === JSON.stringify({ ...next, version: 0 })
      : applied.history.changes.length === 0;
    if (!same && !(await putFlapState(deps.table, next, stored?.version))) return RETRY;
    return { ...applied, notice };
  });
  if (step.outcome === 'pass') return undefined;
  // The notice goes with the change that started flapping (again on a redelivery of that change's job).
  if (step.notice?.transition_id === event.transition_id) await sendNotice(deps, ctx);
  const due = step.history.settle_due_ms;
  if (due !== null) {
    await enqueueAll(deps, [
      settleJob(
        { kind: 'flap_settle', tenant_id: event.tenant_id, check_id: event.check_id, due_ms: due },
        nowMs,
      ),
    ]);
  }
  return { reason: FLAPPING_REASON, untilMs: due };
}

/** The look at the check's flap history: the outcome of a change now, and when the stored history settles. */
async function flapOutlook(
  deps: Pick<NotifyDeps, 'table'>,
  checkId: string,
  policy: PolicyRecord,
  nowMs: number,
): Promise<{ outcome: 'pass' | 'start' | 'hold' | 'settled'; settleMs: number | null }> {
  const stored = await getFlapState(deps.table, checkId);
  const { outcome } = applyFlapChange(
    historyOf(stored),
    { id: 'simulated', at_ms: nowMs },
    nowMs,
    flapPolicyOf(policy),
  );
  const settleMs = stored?.settle_due_ms ?? null;
  return { outcome: outcome === 'hold' && !stored?.held_event ? 'settled' : outcome, settleMs };
}

/**
 * Read-only: whether a change of the check now would be held for flapping (`start`: it would begin
 * flapping, `hold`: it is flapping), without counting it; `settled` when it is flapping with its
 * settled state told and nothing held (a new change would be held, the state now is not).
 */
export async function flapOutcomeIfChanged(
  deps: Pick<NotifyDeps, 'table'>,
  checkId: string,
  policy: PolicyRecord,
  nowMs: number,
): Promise<'pass' | 'start' | 'hold' | 'settled'> {
  return (await flapOutlook(deps, checkId, policy, nowMs)).outcome;
}

/**
 * The flap stage of a change looked at and not counted in the flap history (a re-judgement, `POST
 * /v1/notify/simulate`): held when the change would leave the check's history in `flappingIn`.
 */
export const flapLook =
  (deps: Pick<NotifyDeps, 'table'>, flappingIn: readonly ('start' | 'hold' | 'settled')[]) =>
  async (ctx: AlertContext): Promise<FlapHold | undefined> => {
    const { outcome, settleMs } = await flapOutlook(deps, ctx.event.check_id, ctx.policy, ctx.nowMs);
    return outcome !== 'pass' && flappingIn.includes(outcome)
      ? { reason: FLAPPING_REASON, untilMs: settleMs }
      : undefined;
  };

/**
 * Handles one `flap_settle` job; throws to have it retried. Settled (stable for the settle time):
 * the held change is told and the look moves to the window's end; ended (a window without a
 * change): the history is cleared, and a change still held is told.
 */
export async function handleFlapSettle(deps: NotifyDeps, job: SettleJob): Promise<void> {
  const nowMs = deps.clock.now();
  if (await waitedAnotherHop(deps, job, flapSettleJobId(job.check_id, job.due_ms), nowMs)) return;
  const policy = flapPolicyOf(await effectivePolicy(deps, job.tenant_id, job.check_id));
  const step = await withRetries(OPTIMISTIC_ATTEMPTS, 'the flap history', async () => {
    const stored = await getFlapState(deps.table, job.check_id);
    if (!stored) return null;
    const settled = settleFlap(historyOf(stored), job.due_ms, nowMs, policy);
    if (settled.outcome !== 'settled' && settled.outcome !== 'ended') return null;
    const next =
      settled.outcome === 'ended'
        ? { ...stored, ...settled.history, notice: null, held_event: null }
        : { ...stored, ...settled.history, held_event: null };
    if (!(await putFlapState(deps.table, next, stored.version))) return RETRY;
    return { held: stored.held_event, next: settled.history.settle_due_ms };
  });
  if (!step) return;
  if (step.next !== null) {
    await enqueueAll(deps, [
      settleJob(
        { kind: 'flap_settle', tenant_id: job.tenant_id, check_id: job.check_id, due_ms: step.next },
        nowMs,
      ),
    ]);
  }
  const { held } = step;
  if (!held) return;
  await sendSettled(deps, held, job.due_ms);
  // Whatever the settled alert could not say (another check moved the entity meanwhile) is told now.
  await enqueueAll(deps, [
    rejudgeJob({ tenant_id: held.tenant_id, entity_id: held.entity_id }, nowMs, 'flapping', nowMs),
  ]);
}

/**
 * The one alert after flapping: the latest held change, if it is still the entity's state (a later
 * change of another check alerted on its own), through the stages that apply now: silence,
 * maintenance, the recovery switch; then repeats as for any alert.
 */
async function sendSettled(deps: NotifyDeps, event: StateChangeEvent, dueMs: number): Promise<void> {
  const entity = await readEntityById(deps.table, event.tenant_id, event.entity_id);
  if (!entity || entity.last_transition_id !== event.transition_id) return;
  const nowMs = deps.clock.now();
  const ctx = await readAlertContext(deps, event, {
    nowMs,
    entity: { known: entity },
    flapping: async () => undefined,
  });
  const channels = await channelsForEvent(deps, event, ctx.own, ctx.routing);
  const verdict = await runStages(ctx, stagesNamed('silenced', 'maintenance', 'recovery switch'));
  const skipped = verdict?.reason;
  const { policy } = ctx;
  const settled = `settled:${dueMs}`;
  await deliverToEach(deps, channels, { event, kind: 'alert', seq: settled, timeMs: dueMs, skipped }, nowMs);
  if (!skipped && isDownState(event.to_state) && policy.repeat_interval_seconds > 0) {
    await enqueueAll(deps, [firstRepeat(event, policy, nowMs)]);
  }
}
