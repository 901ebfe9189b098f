/**
 * The judge of the alert-truth model (DECISIONS.md "Alert truth (wave 5)"): pure, over what the
 * driver saw (alert-truth-model.ts). Three rules, per entity E and channel C:
 *
 * - **Invariant.** Once settled, C's last message about E names E's state, or E is up and C was
 *   never told otherwise. C ranges over the channels told anything about E and the channels E's
 *   state reaches: the own and attached channels of the check E's change names (the one whose
 *   result moved E when it is in E's new state, else the oldest check in it: DECISIONS "Cause"), of
 *   every check down when E is down (the `also_failing` rule), and the routes matching E and it.
 *   Exempt: a check of E silenced at the end, a window covering E at the end, an upstream down or
 *   degraded at the end (with suppress_when_upstream_down), and, for a missing recovery only, a
 *   check of E with notify_on_recovery false.
 * - **No change told twice.** Two consecutive state-naming messages to C about E, both told as a
 *   change (`alert`/`recovery`, alone or as a digest's last event about E), naming the same state,
 *   with no change of E dropped on purpose (silence, recovery alerts off) between them.
 * - **Bound.** The run of messages that ends naming E's state starts by E's deadline (its last
 *   result plus its holds chained, a window's end, its upstream's deadline; alert-truth-model.ts).
 *
 * What each message kind names: `alert`, `recovery`, `repeat`, `escalation` and any kind not
 * known here name the event's `to_state` (a message that carries a state claims it); `also_failing`
 * names down; a digest names, per entity, its last event's `to_state` (the driver reads it as its
 * events in order, so a change inside it is no repeat). `test` and `acknowledge`
 * name nothing. A `flapping` notice names the pseudo-state "flapping": it tells the receiver the
 * check is unstable and alerts are held, so the settled state must follow it (DECISIONS: "one
 * flapping notice ... then one alert with the settled state"), and an alert after it is no repeat.
 */

export type CheckOutcome = 'up' | 'degraded' | 'down';

/** One message to one channel about one entity. */
export interface Told {
  /** The channel's tag: e<i>c<j> (a check's own), t<k> (a tenant channel). */
  channel: string;
  entity: number;
  atMs: number;
  /** The payload kind ("alert", "recovery", "repeat", "escalation", "flapping", "digest(alert)", ...). */
  word: string;
  names: string | null;
  /** Arrival order across channels. */
  seq: number;
}

interface Change {
  atMs: number;
  from: string;
  to: string;
  /** The check (index) the change names: the mover when it is in the new state, else the oldest check in it. */
  cause: number;
  /** Dropped on purpose: a check of the entity silenced, or a recovery with notify_on_recovery false. */
  dropped: boolean;
}

interface EntityFacts {
  /** Per check: the tags of its own and attached channels. */
  checkChannels: string[][];
  dependsOn: number | null;
  suppressUpstream: boolean;
  recoveryOff: boolean;
  changes: Change[];
  lastResultMs: number;
  holdMs: number;
  finalState: string;
  finalCheckStates: string[];
  silencedAtEnd: boolean;
  maintenanceAtEnd: boolean;
  maintenanceEnds: number[];
}

export interface TruthFacts {
  entities: EntityFacts[];
  routes: { entity: number | null; toStates: CheckOutcome[] | null; channel: string }[];
  told: Told[];
}

/**
 * `also_failing` is the invariant for a channel only a second failing check reaches and that was
 * never told anything: a rule of its own so an exploring run can set it aside (VIGIL_MODEL_IGNORE).
 */
const RULES = ['invariant', 'also_failing', 'duplicate', 'bound'] as const;

export interface Violation {
  rule: (typeof RULES)[number];
  entity: number;
  channel: string;
  what: string;
}

const CHANGE_WORDS: ReadonlySet<string> = new Set(['alert', 'recovery', 'digest(alert)', 'digest(recovery)']);

function upstreamDown(facts: TruthFacts, i: number): string | undefined {
  const seen = new Set<number>();
  for (let at = facts.entities[i]?.dependsOn; at !== null && at !== undefined && !seen.has(at); ) {
    seen.add(at);
    const up = facts.entities[at];
    if (!up) return undefined;
    if (up.finalState === 'down' || up.finalState === 'degraded') return `e${at}`;
    at = up.dependsOn;
  }
  return undefined;
}

/**
 * The channels E's current state reaches (see the file comment), each with how: `cause` (the
 * causing check's channels and the routes) or `also_failing` (only through another check down).
 */
function reached(facts: TruthFacts, i: number): Map<string, 'cause' | 'also_failing'> {
  const f = facts.entities[i];
  const out = new Map<string, 'cause' | 'also_failing'>();
  if (!f || f.finalState === 'up' || f.finalState === 'unknown') return out;
  const cause = f.changes.at(-1)?.cause;
  if (cause !== undefined) for (const c of f.checkChannels[cause] ?? []) out.set(c, 'cause');
  for (const r of facts.routes)
    if (
      (r.entity === null || r.entity === i) &&
      (!r.toStates || r.toStates.includes(f.finalState as CheckOutcome))
    )
      out.set(r.channel, 'cause');
  if (f.finalState === 'down')
    f.finalCheckStates.forEach((state, j) => {
      if (state === 'down')
        for (const c of f.checkChannels[j] ?? []) if (!out.has(c)) out.set(c, 'also_failing');
    });
  return out;
}

/** The violations of the three rules; `deadlines[i]` is entity i's bound (epoch ms). */
export function checkTruth(facts: TruthFacts, deadlines: number[], startMs: number): Violation[] {
  const out: Violation[] = [];
  const rel = (ms: number) => `t+${Math.round((ms - startMs) / 1000)}s`;
  facts.entities.forEach((f, i) => {
    const state = f.finalState;
    const about = facts.told.filter((m) => m.entity === i);
    const upstream = upstreamDown(facts, i);
    const exempt =
      (f.silencedAtEnd && 'a check is silenced') ||
      (f.maintenanceAtEnd && 'a maintenance window covers it') ||
      (upstream !== undefined && f.suppressUpstream && `its upstream ${upstream} is down`) ||
      undefined;
    const reach = reached(facts, i);
    const channels = new Set([...about.map((m) => m.channel), ...reach.keys()]);
    for (const channel of [...channels].sort()) {
      const said = about.filter((m) => m.channel === channel && m.names !== null);
      const last = said.at(-1);

      // No change told twice.
      for (let k = 1; k < said.length; k += 1) {
        const a = said[k - 1];
        const b = said[k];
        if (!a || !b || a.names !== b.names || !CHANGE_WORDS.has(a.word) || !CHANGE_WORDS.has(b.word))
          continue;
        if (f.changes.some((c) => c.dropped && c.atMs > a.atMs && c.atMs <= b.atMs)) continue;
        out.push({
          rule: 'duplicate',
          entity: i,
          channel,
          what: `e${i} → ${channel}: ${a.word} ${a.names} at ${rel(a.atMs)}, then ${b.word} ${b.names} again at ${rel(b.atMs)}`,
        });
      }

      if (exempt) continue;
      const ok = last ? last.names === state : state === 'up';
      if (!ok) {
        if (state === 'up' && f.recoveryOff) continue;
        const onlyAlso = !last && reach.get(channel) === 'also_failing';
        out.push({
          rule: onlyAlso ? 'also_failing' : 'invariant',
          entity: i,
          channel,
          what: `e${i} is ${state} but ${channel}'s last word about it is ${last ? `${last.word} ${last.names} (${rel(last.atMs)})` : `nothing${onlyAlso ? ' (its check failed after another took the entity down)' : ''}`}`,
        });
        continue;
      }
      // The bound: the final run of messages naming the state starts by the deadline.
      let first = said.length - 1;
      while (first > 0 && said[first - 1]?.names === state) first -= 1;
      const told = said[first];
      const deadline = deadlines[i] ?? Number.POSITIVE_INFINITY;
      if (told && told.atMs > deadline)
        out.push({
          rule: 'bound',
          entity: i,
          channel,
          what: `e${i} → ${channel}: ${told.word} ${told.names} at ${rel(told.atMs)}, after its bound ${rel(deadline)}`,
        });
    }
  });
  return out;
}
