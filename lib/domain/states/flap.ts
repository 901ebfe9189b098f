/**
 * Flap detection of one check (issue 35, DECISIONS.md "Alert model (wave 4)" Flapping). Pure: the
 * caller loads the history, applies one change (an alert the check's transition would send) or a
 * settle look, and stores the history returned.
 *
 * A check whose changes number more than `changes` within `window_seconds` is flapping: it sends one
 * `flapping` notice and its alerts are held. Once it has stayed in one state for `settle_seconds`
 * (at most the window; issue 75) one alert says the state it settled in, and a later change is held
 * and settles the same way (no second notice); once it has had no change for the whole window,
 * flapping ends and alerts flow as usual. `changes: 0` turns detection off.
 */

/** One change of the check: its transition and when it happened (ms). */
export interface FlapChange {
  id: string;
  at_ms: number;
}

export interface FlapHistory {
  /** The changes inside the window, oldest first (at most MAX_KEPT_CHANGES). */
  changes: FlapChange[];
  /** When flapping was detected, or null while not flapping. */
  flapping_since_ms: number | null;
  /**
   * The next settle look while flapping, or null: the latest change + the settle time while a
   * change is held, then the latest change + the window (when flapping ends).
   */
  settle_due_ms: number | null;
}

export interface FlapPolicy {
  /** More than this many changes in the window is flapping; 0: detection off. */
  changes: number;
  window_seconds: number;
  /** How long a flapping check must stay in one state before that state is told (capped at the window). */
  settle_seconds: number;
}

/**
 * `pass`: evaluate the alert as usual; `start`: flapping begins now (send the notice, hold the
 * alert); `hold`: flapping goes on (hold the alert; the settle look moved to `settle_due_ms`).
 */
export type FlapOutcome = 'pass' | 'start' | 'hold';

/** The settle time in ms: the policy's, at most the window. */
const settleMsOf = (policy: FlapPolicy) => Math.min(policy.settle_seconds, policy.window_seconds) * 1000;

/** The time of the latest change of `changes` and `also` (changes may arrive out of order). */
const latestAt = (changes: readonly FlapChange[], also?: FlapChange) =>
  Math.max(also?.at_ms ?? Number.NEGATIVE_INFINITY, ...changes.map((c) => c.at_ms));

/** The bound of the kept list: `flap_changes` is at most 50, and one more is flapping. */
export const MAX_KEPT_CHANGES = 51;

export function emptyFlapHistory(): FlapHistory {
  return { changes: [], flapping_since_ms: null, settle_due_ms: null };
}

/**
 * Adds one change (a redelivered one, same id, is counted once and moves nothing) and decides. The
 * window counts back from `nowMs`; the settle look is due the settle time after the latest change.
 */
export function applyFlapChange(
  history: FlapHistory,
  change: FlapChange,
  nowMs: number,
  policy: FlapPolicy,
): { history: FlapHistory; outcome: FlapOutcome } {
  if (policy.changes <= 0) return { history: emptyFlapHistory(), outcome: 'pass' };
  const windowMs = policy.window_seconds * 1000;
  const seen = history.changes.some((c) => c.id === change.id);
  const changes = (seen ? history.changes : [...history.changes, change])
    .filter((c) => c.at_ms > nowMs - windowMs)
    .sort((a, b) => a.at_ms - b.at_ms)
    .slice(-MAX_KEPT_CHANGES);
  if (history.flapping_since_ms !== null) {
    return {
      history: {
        changes,
        flapping_since_ms: history.flapping_since_ms,
        settle_due_ms: seen ? history.settle_due_ms : latestAt(changes, change) + settleMsOf(policy),
      },
      outcome: 'hold',
    };
  }
  if (changes.length > policy.changes) {
    return {
      history: {
        changes,
        flapping_since_ms: nowMs,
        settle_due_ms: latestAt(changes, change) + settleMsOf(policy),
      },
      outcome: 'start',
    };
  }
  return { history: { changes, flapping_since_ms: null, settle_due_ms: null }, outcome: 'pass' };
}

/**
 * The settle look asked for `dueMs`: `stale` when a later change moved the look (or flapping ended
 * already), `wait` before it is due; else the state the check settled in is told, and `settled`
 * keeps it flapping with the next look at the window's end (a later change is held and settles
 * likewise), or `ended` once it had no change for the whole window: the history is then cleared.
 */
export function settleFlap(
  history: FlapHistory,
  dueMs: number,
  nowMs: number,
  policy: Pick<FlapPolicy, 'window_seconds'>,
): { history: FlapHistory; outcome: 'stale' | 'wait' | 'settled' | 'ended' } {
  if (history.flapping_since_ms === null || history.settle_due_ms !== dueMs)
    return { history, outcome: 'stale' };
  if (nowMs < dueMs) return { history, outcome: 'wait' };
  const endsMs = latestAt(history.changes) + policy.window_seconds * 1000;
  if (history.changes.length === 0 || endsMs <= nowMs)
    return { history: emptyFlapHistory(), outcome: 'ended' };
  return { history: { ...history, settle_due_ms: endsMs }, outcome: 'settled' };
}
