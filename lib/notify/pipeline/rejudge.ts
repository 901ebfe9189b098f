import { type EntityState, readEntityById } from '../../catalog/entities.ts';
import { readEntityTransition } from '../../checks/results.ts';
import { changeOrder, type StateChangeEvent } from '../../domain/states.ts';
import { isoTime } from '../../platform/clock.ts';
import type { ChannelRecord } from '../items/channel-items.ts';
import { uniqueChannels } from '../items/channel-store.ts';
import { idTimeMs, rejudgeJobId } from '../items/job-ids.ts';
import type { PolicyRecord } from '../items/policy-items.ts';
import { channelsForEvent } from '../items/route-channels.ts';
import type { ToldRecord } from '../items/told-items.ts';
import type { NotifyJob } from '../jobs.ts';
import { rejudgeJob, waitedAnotherHop } from './due-jobs.ts';
import { flapLook } from './flapping.ts';
import { readAlertContext } from './job-context.ts';
import { enqueueAll, type NotifyDeps, newDelivery, storeAndDispatch } from './notify-deps.ts';
import { firstRepeat } from './repeat.ts';
import { type AlertVerdict, runStages } from './stages.ts';
import { alertHeldBackOps } from './suppressed-alert-items.ts';
import { isDownState } from './upstream.ts';

/**
 * Holds delay, never drop (DECISIONS.md "Alert truth (wave 5)"). Every hold that stops an alert
 * (the cooldown, a maintenance window, flap settling, an upstream hold) leaves one `rejudge` job
 * for the entity at the hold's end. When it is due the notifier judges the entity's state *then*:
 * each channel whose last word about it (told-items.ts) differs from that state — the channels the
 * state reaches now (the causing check's own and attached channels, matching routes) and every
 * channel told anything about the entity — gets the current truth as an alert (a down, a degraded
 * or a recovery; a recovery only where the channel was told the entity was not up), under one
 * record per transition and channel (`seq` "truth"), through the same gate as any alert (told.ts),
 * so a redelivered or doubled job sends nothing twice. A hold still running then (another
 * cooldown, a new window) leaves the next look at its end; silence and the recovery switch are
 * the exceptions the delivery log shows.
 */

type RejudgeJob = Extract<NotifyJob, { kind: 'rejudge' }>;

/** The check an entity's current state is blamed on: its last transition's, else the first check in that state. */
function causeOf(entity: EntityState, transitionCheckId: string | undefined): string | undefined {
  if (transitionCheckId) return transitionCheckId;
  const states = entity.check_states ?? {};
  return Object.keys(states)
    .sort()
    .find((id) => states[id] === entity.state);
}

/** The entity's current state as a change (from `from`), named by its last transition. */
export async function truthEvent(
  deps: Pick<NotifyDeps, 'table'>,
  tenantId: string,
  entity: EntityState,
): Promise<StateChangeEvent | undefined> {
  const transitionId = entity.last_transition_id;
  if (!transitionId) return undefined;
  const transition = await readEntityTransition(deps.table, tenantId, entity.id, transitionId);
  const checkId = causeOf(entity, transition?.check_id);
  const atMs = idTimeMs(transitionId);
  if (!checkId || (!transition && atMs === undefined)) return undefined;
  return {
    entity_id: entity.id,
    entity_name: entity.name,
    check_id: checkId,
    tenant_id: tenantId,
    // A recovery when up (the steps tell it by its from_state); each channel's record names its own word.
    from_state: entity.state === 'up' ? 'down' : 'up',
    to_state: entity.state,
    transition_id: transitionId,
    timestamp: transition?.created_at ?? isoTime(atMs ?? 0),
  };
}

/**
 * Whether a channel whose last word is `told` (undefined: never told) must be told `state`: it
 * heard another state, or a flapping notice that waits for the settled state.
 */
export const untold = (told: ToldRecord | undefined, state: string) =>
  told ? told.state !== state || told.kind === 'flapping' : state !== 'up';

/** The channels the truth goes to: those it reaches now, and every channel told anything of the entity. */
export async function truthChannels(
  deps: Pick<NotifyDeps, 'channels'>,
  event: Pick<StateChangeEvent, 'check_id' | 'tenant_id'>,
  told: readonly ToldRecord[],
  reached: readonly ChannelRecord[],
): Promise<ChannelRecord[]> {
  const known = new Set(reached.map((channel) => channel.id));
  const extra: ChannelRecord[] = [];
  for (const word of told) {
    if (known.has(word.channel_id)) continue;
    const channel = await deps.channels.get(
      word.channel_check_id ?? event.check_id,
      word.channel_id,
      event.tenant_id,
    );
    if (channel) extra.push(channel);
    known.add(word.channel_id);
  }
  return [...reached, ...extra];
}

/** The own and attached channels of the entity's other failing checks (none while it is up). */
async function failingChecksChannels(
  deps: Pick<NotifyDeps, 'channels'>,
  entity: EntityState,
  causeId: string,
): Promise<ChannelRecord[]> {
  const states = entity.check_states ?? {};
  const failing = Object.keys(states)
    .sort()
    .filter((id) => id !== causeId && isDownState(states[id] ?? ''));
  return (await Promise.all(failing.map((id) => deps.channels.listForCheck(id)))).flat();
}

/** What a hold still running at the look does: the next look at its end, or a marker its release reads. */
async function actOnHold(deps: NotifyDeps, event: StateChangeEvent, verdict: AlertVerdict): Promise<void> {
  const nowMs = deps.clock.now();
  const target = { tenant_id: event.tenant_id, entity_id: event.entity_id };
  if (verdict.maintenance)
    await enqueueAll(deps, [rejudgeJob(target, verdict.maintenance.endsMs, 'maintenance', nowMs)]);
  else if (verdict.step === 'cooldown' && verdict.dueMs !== undefined)
    await enqueueAll(deps, [rejudgeJob(target, verdict.dueMs, 'cooldown', nowMs)]);
  else if (verdict.upstreams)
    await deps.table.transact(
      alertHeldBackOps(
        event,
        verdict.upstreams.map((up) => up.id),
      ),
    );
  // Flapping: the settle look re-judges (flapping.ts); silence and the recovery switch hold for good.
}

/** What the notifier reads of an entity's truth: enough for the re-judge and for the simulation. */
export type TruthDeps = Pick<NotifyDeps, 'table' | 'clock' | 'policies' | 'channels'>;

/** An entity's state as a change, each channel's last word, the channels it reaches, and what holds it now. */
export interface TruthJudgement {
  event: StateChangeEvent;
  policy: PolicyRecord;
  /** Each channel's last word about the entity, by channel id. */
  words: ReadonlyMap<string, ToldRecord>;
  /** The channels the state reaches now, then every other channel told anything of the entity. */
  channels: ChannelRecord[];
  /** The channels whose last word differs from the state (`untold`). */
  behind: ChannelRecord[];
  /** What holds the state back from them now (read only: a look counts no flap change); undefined when nothing does or none is behind. */
  verdict: AlertVerdict | undefined;
}

/** Judges the entity's truth now, reading only; undefined for an unknown entity or one never changed. */
export async function judgeTruth(
  deps: TruthDeps,
  tenantId: string,
  entity: EntityState,
  nowMs: number,
): Promise<TruthJudgement | undefined> {
  if (entity.state === 'unknown') return undefined;
  const event = await truthEvent(deps, tenantId, entity);
  if (!event) return undefined;
  // The stages as for a fresh alert, except that a look counts no change in the flap history: only
  // a check flapping already holds.
  const ctx = await readAlertContext(deps, event, {
    nowMs,
    entity: { known: entity },
    flapping: flapLook(deps, ['hold']),
  });
  const { policy, own, routing, told, words } = ctx;
  // A failing entity's state reaches its failing checks' channels too (a check also failing, told
  // as such or held: DECISIONS.md "Alert truth (wave 5)" Cause).
  const failingOwn = await failingChecksChannels(deps, entity, event.check_id);
  const reached = await channelsForEvent(deps, event, uniqueChannels([...own, ...failingOwn]), routing);
  const channels = await truthChannels(deps, event, told, reached);
  const behind = channels.filter((channel) => untold(words.get(channel.id), entity.state));
  const verdict = behind.length === 0 ? undefined : await runStages(ctx);
  return { event, policy, words, channels, behind, verdict };
}

/** Handles one `rejudge` job; throws to have it retried. */
export async function handleRejudge(deps: NotifyDeps, job: RejudgeJob): Promise<void> {
  const nowMs = deps.clock.now();
  if (await waitedAnotherHop(deps, job, rejudgeJobId(job.entity_id, job.due_ms), nowMs)) return;
  const entity = await readEntityById(deps.table, job.tenant_id, job.entity_id);
  const judged = entity && (await judgeTruth(deps, job.tenant_id, entity, nowMs));
  if (!judged || judged.behind.length === 0) return;
  const { event, policy, verdict, words: byChannel } = judged;
  if (verdict) {
    deps.logger.debug('re-judge held', {
      entity_id: event.entity_id,
      by: verdict.step,
      reason: verdict.reason,
    });
    return actOnHold(deps, event, verdict);
  }
  const due = judged.behind;
  const records = due.map((channel) => {
    const from = byChannel.get(channel.id)?.state ?? 'up';
    return newDelivery(
      { event: { ...event, from_state: from }, channel, kind: 'alert', seq: 'truth', timeMs: job.due_ms },
      nowMs,
    );
  });
  // The state as judged now: newer than any word told before this look (a check's also_failing included).
  await storeAndDispatch(deps, records, {
    order: changeOrder({ timestamp: isoTime(nowMs), transition_id: event.transition_id }),
    words: byChannel,
  });
  if (isDownState(event.to_state) && policy.repeat_interval_seconds > 0)
    await enqueueAll(deps, [firstRepeat(event, policy, nowMs)]);
}
