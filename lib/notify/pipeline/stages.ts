import type { EntityState } from '../../catalog/entities.ts';
import { isRecovery } from '../../domain/states.ts';
import type { ActiveMaintenance } from '../../maintenance/evaluate.ts';
import type { ChannelRecord } from '../items/channel-items.ts';
import type { AlertContext } from './job-context.ts';
import { isDownState } from './upstream.ts';

/**
 * The alert path as stages (STYLE.md "Features and stages (wave 6)", after Alertmanager's notify
 * pipeline): each hold is one stage `{name, decide(ctx)}` over the job's context read once
 * (job-context.ts), answering pass, hold (until when, null: until something else happens) or drop.
 * The list runs in SPEC.md's order and the first stage that does not pass decides; a stage reads
 * only what it asks the context for. The event job (flow.ts), the re-judge (rejudge.ts), the flap
 * settle (flapping.ts) and the simulation (simulate.ts) run this same list, so they cannot drift.
 */

/** What happens to an alert on one channel (DECISIONS.md "Alert model (wave 4)"). */
export type AlertOutcome = 'send' | 'skip' | 'defer' | 'fold' | 'group';

/** A stage's answer. A hold delays what it holds (DECISIONS.md "Alert truth (wave 5)"); a drop is for good. */
type StageDecision =
  | { kind: 'pass' }
  | {
      kind: 'hold';
      reason: string;
      /** When the hold ends (epoch ms), null when something else ends it (an upstream's recovery). */
      untilMs: number | null;
      /** The alert is logged `deferred` and sent at `untilMs` (a recovery inside the cooldown). */
      defer?: true;
      /** The alert is due again at `untilMs`: a look at the entity's truth then (rejudge.ts). */
      due?: true;
      maintenance?: ActiveMaintenance;
      upstreams?: EntityState[];
    }
  | { kind: 'drop'; reason: string };

/** One stage of the alert path. */
export interface AlertStage {
  name: string;
  decide(ctx: AlertContext): StageDecision | Promise<StageDecision>;
}

/** Why an alert is not sent now (the first stage that did not pass), as the flow acts on it. */
export interface AlertVerdict {
  /** The stage that decided. */
  step: string;
  outcome: Exclude<AlertOutcome, 'send'>;
  /** The delivery log's reason ("silenced", "maintenance: Nightly", "cooldown: 181 s left"). */
  reason: string;
  /** A hold's end (epoch ms); null for a drop or a hold without a known end. */
  untilMs: number | null;
  /** defer: when the alert is due again; a cooldown skip: when the cooldown ends (epoch ms). */
  dueMs?: number;
  /** The window that covers the entity now (maintenance stage). */
  maintenance?: ActiveMaintenance;
  /** The down upstreams the alert is held back for (upstream stage). */
  upstreams?: EntityState[];
}

const PASS: StageDecision = { kind: 'pass' };
const drop = (reason: string): StageDecision => ({ kind: 'drop', reason });

/** The cooldown's end after the check's last sent alert, when it is still running. */
async function cooldownEnd(ctx: AlertContext): Promise<number | undefined> {
  const { cooldown_seconds } = ctx.policy;
  if (cooldown_seconds <= 0) return undefined;
  const lastSent = await ctx.lastSentMs();
  if (lastSent === undefined) return undefined;
  const dueMs = lastSent + cooldown_seconds * 1000;
  return dueMs > ctx.nowMs ? dueMs : undefined;
}

const cooldownReason = (ctx: AlertContext, dueMs: number) =>
  `cooldown: ${Math.ceil((dueMs - ctx.nowMs) / 1000)} s left`;

const FIRST_RESULT: AlertStage = {
  name: 'first result',
  decide: ({ event }) =>
    event.from_state === 'unknown' && event.to_state === 'up' ? drop('first result') : PASS,
};

const SILENCED: AlertStage = {
  name: 'silenced',
  decide: ({ policy }) => (policy.silenced ? drop('silenced') : PASS),
};

const MAINTENANCE: AlertStage = {
  name: 'maintenance',
  async decide(ctx) {
    const maintenance = await ctx.maintenance();
    return maintenance
      ? { kind: 'hold', reason: `maintenance: ${maintenance.name}`, untilMs: maintenance.endsMs, maintenance }
      : PASS;
  },
};

const RECOVERY_SWITCH: AlertStage = {
  name: 'recovery switch',
  decide: ({ event, policy }) =>
    isRecovery(event) && !policy.notify_on_recovery ? drop('recovery alerts are off') : PASS,
};

const FLAPPING: AlertStage = {
  name: 'flapping',
  async decide(ctx) {
    const held = await ctx.flapping();
    return held ? { kind: 'hold', reason: held.reason, untilMs: held.untilMs } : PASS;
  },
};

/**
 * Deferral: a recovery inside the cooldown is logged `deferred` and sent at its end (whatever the
 * entity's state is then is told: deferred-recovery.ts). Nothing is dropped by the cooldown.
 */
const DEFERRAL: AlertStage = {
  name: 'deferral',
  async decide(ctx) {
    if (!isRecovery(ctx.event)) return PASS;
    const dueMs = await cooldownEnd(ctx);
    return dueMs === undefined
      ? PASS
      : { kind: 'hold', reason: cooldownReason(ctx, dueMs), untilMs: dueMs, defer: true, due: true };
  },
};

/** The cooldown: any other change inside it is held to its end, and the entity's truth told then (flow.ts). */
const COOLDOWN: AlertStage = {
  name: 'cooldown',
  async decide(ctx) {
    if (isRecovery(ctx.event)) return PASS;
    const dueMs = await cooldownEnd(ctx);
    return dueMs === undefined
      ? PASS
      : { kind: 'hold', reason: cooldownReason(ctx, dueMs), untilMs: dueMs, due: true };
  },
};

/** Dependency-aware suppression (upstream.ts): a down held back while an upstream is down, until it recovers. */
const UPSTREAM: AlertStage = {
  name: 'upstream',
  async decide(ctx) {
    if (!ctx.policy.suppress_when_upstream_down || !isDownState(ctx.event.to_state)) return PASS;
    const upstreams = await ctx.upstreams();
    const first = upstreams[0];
    return first
      ? { kind: 'hold', reason: `upstream ${first.name} is down`, untilMs: null, upstreams }
      : PASS;
  },
};

/** The stages before the channels, in SPEC.md's order. */
export const ALERT_STAGES: readonly AlertStage[] = [
  FIRST_RESULT,
  SILENCED,
  MAINTENANCE,
  RECOVERY_SWITCH,
  FLAPPING,
  DEFERRAL,
  COOLDOWN,
  UPSTREAM,
];

/** The stages named, in the list's order (a settled flap's alert runs only some: flapping.ts). */
export const stagesNamed = (...names: string[]): readonly AlertStage[] =>
  ALERT_STAGES.filter((stage) => names.includes(stage.name));

/** A stage's decision that does not pass, as the verdict the flow acts on. */
function verdictOf(stage: AlertStage, decision: Exclude<StageDecision, { kind: 'pass' }>): AlertVerdict {
  // The delivery log and the visible truth name the cooldown for a deferral too.
  const step = stage.name === 'deferral' ? 'cooldown' : stage.name;
  if (decision.kind === 'drop') return { step, outcome: 'skip', reason: decision.reason, untilMs: null };
  return {
    step,
    outcome: decision.defer ? 'defer' : 'skip',
    reason: decision.reason,
    untilMs: decision.untilMs,
    ...(decision.due && decision.untilMs !== null ? { dueMs: decision.untilMs } : {}),
    ...(decision.maintenance ? { maintenance: decision.maintenance } : {}),
    ...(decision.upstreams ? { upstreams: decision.upstreams } : {}),
  };
}

/** Runs the stages in order: the first that does not pass decides; undefined when the alert goes to its channels. */
export async function runStages(
  ctx: AlertContext,
  stages: readonly AlertStage[] = ALERT_STAGES,
): Promise<AlertVerdict | undefined> {
  for (const stage of stages) {
    const decision = await stage.decide(ctx);
    if (decision.kind !== 'pass') return verdictOf(stage, decision);
  }
  return undefined;
}

/** One channel's part of the decision (channel null: the alert had no channel at all). */
export interface ChannelDecision {
  channel: ChannelRecord | null;
  outcome: AlertOutcome;
  reason: string | undefined;
  dueMs?: number;
}

/** Each channel's outcome: the verdict's for every channel, else send; no channel at all is one "no channels" skip. */
export function channelDecisions(
  verdict: AlertVerdict | undefined,
  channels: readonly ChannelRecord[],
): ChannelDecision[] {
  const held = verdict && {
    outcome: verdict.outcome,
    reason: verdict.reason,
    ...(verdict.dueMs === undefined ? {} : { dueMs: verdict.dueMs }),
  };
  if (channels.length === 0)
    return [{ channel: null, ...(held ?? { outcome: 'skip', reason: 'no channels' }) }];
  return channels.map((channel) => ({ channel, ...(held ?? { outcome: 'send', reason: undefined }) }));
}
