import type { EntityState } from '../../catalog/entity-items.ts';
import { isRecovery, type StateChangeEvent } from '../../domain/states.ts';
import type { ActiveMaintenance } from '../../maintenance/evaluate.ts';
import type { Table } from '../../store/table.ts';
import type { ChannelRecord } from '../channel-setup/channel-items.ts';
import type { PolicyRecord } from '../policy/policy-items.ts';
import { lastSentAtMs } from './notify-state-items.ts';
import { downUpstreams, isDownState } from './upstream.ts';

/**
 * What the flow decides about one alert, as data: SPEC.md's steps in order, each a pure-ish check
 * over facts read at most once (and only when a step asks), answering a verdict that stops the
 * alert or nothing to go on. The event job (flow.ts) acts on the verdict (records, the maintenance
 * look, held-back markers); the simulation (simulate.ts) only reports it, so the two cannot drift.
 */

/** What happens to an alert on one channel (DECISIONS.md "Alert model (wave 4)"). */
export type AlertOutcome = 'send' | 'skip' | 'defer' | 'fold' | 'group';

/** Why an alert is not sent now, and what the flow needs to act on it. */
export interface AlertVerdict {
  /** The step that decided. */
  step: string;
  outcome: Exclude<AlertOutcome, 'send'>;
  /** The delivery log's reason ("silenced", "maintenance: Nightly", "cooldown: 181 s left"). */
  reason: string;
  /** defer: when the alert is due again; a cooldown skip: when the cooldown ends (epoch ms). */
  dueMs?: number;
  /** The window that covers the entity now (maintenance step). */
  maintenance?: ActiveMaintenance;
  /** The down upstreams the alert is held back for (upstream step). */
  upstreams?: EntityState[];
}

/** What the steps read, each at most once and only when a step asks. */
export interface AlertFacts {
  event: StateChangeEvent;
  policy: PolicyRecord;
  nowMs: number;
  maintenance(): Promise<ActiveMaintenance | undefined>;
  lastSentMs(): Promise<number | undefined>;
  upstreams(): Promise<EntityState[]>;
  /** The flap step's answer: `flapping` while the check's alerts are held (flapping.ts), else undefined. */
  flapping(): Promise<string | undefined>;
}

/** One step of the flow: a verdict that stops the alert here, or undefined to go on. */
export interface AlertStep {
  name: string;
  check(facts: AlertFacts): Promise<AlertVerdict | undefined> | AlertVerdict | undefined;
}

const once = <T>(read: () => Promise<T>): (() => Promise<T>) => {
  let value: Promise<T> | undefined;
  return () => {
    value ??= read();
    return value;
  };
};

/** The facts of one event, read from the store on first ask. */
export function alertFacts(
  deps: { table: Table },
  event: StateChangeEvent,
  policy: PolicyRecord,
  nowMs: number,
  maintenanceNow: () => Promise<ActiveMaintenance | undefined>,
  flapping: () => Promise<string | undefined>,
): AlertFacts {
  return {
    event,
    policy,
    nowMs,
    maintenance: once(maintenanceNow),
    lastSentMs: once(() => lastSentAtMs(deps.table, event.check_id)),
    upstreams: once(() => downUpstreams(deps.table, event.tenant_id, event.entity_id)),
    flapping: once(flapping),
  };
}

const skip = (step: string, reason: string, extra: Partial<AlertVerdict> = {}): AlertVerdict => ({
  step,
  outcome: 'skip',
  reason,
  ...extra,
});

/** The steps before the channels, in SPEC.md's order; the first verdict wins. */
const ALERT_STEPS: readonly AlertStep[] = [
  {
    name: 'first result',
    check: ({ event }) =>
      event.from_state === 'unknown' && event.to_state === 'up'
        ? skip('first result', 'first result')
        : undefined,
  },
  {
    name: 'silenced',
    check: ({ policy }) => (policy.silenced ? skip('silenced', 'silenced') : undefined),
  },
  {
    name: 'maintenance',
    async check(facts) {
      const maintenance = await facts.maintenance();
      return maintenance && skip('maintenance', `maintenance: ${maintenance.name}`, { maintenance });
    },
  },
  {
    name: 'recovery switch',
    check: ({ event, policy }) =>
      isRecovery(event) && !policy.notify_on_recovery
        ? skip('recovery switch', 'recovery alerts are off')
        : undefined,
  },
  {
    name: 'flapping',
    async check(facts) {
      const reason = await facts.flapping();
      return reason === undefined ? undefined : skip('flapping', reason);
    },
  },
  {
    name: 'cooldown',
    async check(facts) {
      const lastSent = await facts.lastSentMs();
      const { cooldown_seconds } = facts.policy;
      if (lastSent === undefined || cooldown_seconds <= 0) return undefined;
      const dueMs = lastSent + cooldown_seconds * 1000;
      const leftMs = dueMs - facts.nowMs;
      if (leftMs <= 0) return undefined;
      const reason = `cooldown: ${Math.ceil(leftMs / 1000)} s left`;
      // Nothing is dropped by the cooldown: a recovery is due at its end, and whatever the entity's
      // state is then is told (flow.ts leaves the re-judge; DECISIONS.md "Alert truth (wave 5)").
      return isRecovery(facts.event)
        ? { step: 'cooldown', outcome: 'defer', reason, dueMs }
        : skip('cooldown', reason, { dueMs });
    },
  },
  {
    name: 'upstream',
    async check(facts) {
      if (!facts.policy.suppress_when_upstream_down || !isDownState(facts.event.to_state)) return undefined;
      const upstreams = await facts.upstreams();
      const first = upstreams[0];
      return first && skip('upstream', `upstream ${first.name} is down`, { upstreams });
    },
  },
];

/** Runs the steps in order: the first verdict, or undefined when the alert goes to its channels. */
export async function decideAlert(
  facts: AlertFacts,
  steps: readonly AlertStep[] = ALERT_STEPS,
): Promise<AlertVerdict | undefined> {
  for (const step of steps) {
    const verdict = await step.check(facts);
    if (verdict) return verdict;
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
