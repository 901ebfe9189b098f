/**
 * The per-check state machine (SPEC.md "States and transitions", DECISIONS.md "Checks and state").
 * Pure: the caller loads the snapshot, applies one result and stores `next`.
 */

/** Every state an entity or a check can be in. */
export type State = 'up' | 'down' | 'degraded' | 'unknown';

/** The states a single check can be in: all of them (degraded since issue 29: a slow or near-expiry success). */
export type CheckState = State;

export interface CheckStateSnapshot {
  state: CheckState;
  consecutive_failures: number;
  /**
   * Successes in a row while down or degraded (issue 35's `success_threshold`); absent in items
   * written before it, read as 0. Always 0 while up or unknown, so a healthy check's snapshot never
   * moves and a healthy slot writes no state. Left out when 0 (items stay as they were).
   */
  consecutive_successes?: number | undefined;
}

/** True when two snapshots are the same (state and both counters): nothing to store. */
export function sameSnapshot(a: CheckStateSnapshot, b: CheckStateSnapshot): boolean {
  return (
    a.state === b.state &&
    a.consecutive_failures === b.consecutive_failures &&
    (a.consecutive_successes ?? 0) === (b.consecutive_successes ?? 0)
  );
}

export interface AppliedResult {
  next: CheckStateSnapshot;
  /** True exactly when `next.state` differs from the previous state: a transition to record. */
  changed: boolean;
  /** Human-readable cause, stored as the transition's `reason`. */
  reason: string;
}

/**
 * Applies one check result to a snapshot and returns the next snapshot.
 *
 * Rules (where SPEC.md is silent, the choice is marked):
 * - Any success → up, counter 0 (down → up is a recovery); a degraded success (slower than
 *   degraded_latency_ms, a certificate inside its expiry threshold) → degraded, counter 0.
 * - `successThreshold` (issue 35, default 1 = SPEC's "any single success"): a down or degraded check
 *   needs that many successes in a row to move to the better state; below it the check keeps its
 *   state and counts (a degraded success counts toward a down check's recovery, and with the last
 *   one the check lands on what that result says). A failure resets the count. (Choice) unknown → up
 *   and up → degraded stay immediate: the threshold guards recoveries, not first results or worsening.
 * - A failure increments the counter; when the counter reaches `failureThreshold` the check is down.
 * - Below the threshold a failure keeps the state: up stays up, degraded stays degraded, and (choice) unknown stays unknown,
 *   because a check that has never succeeded has shown no evidence of being up. So "unknown until
 *   its first result" means until its first *decisive* result: a success, or failures reaching the
 *   threshold.
 * - (Choice) down + failure stays down and the counter keeps counting, so repeat alerts can say how
 *   long the outage has lasted; a raised threshold never moves a down check back up without a success.
 *
 * Throws RangeError when `failureThreshold` is not an integer >= 1: thresholds are validated when a
 * check is written, so a bad one here is a bug, not a client error.
 */
export function applyResult(
  snapshot: CheckStateSnapshot,
  result: { success: boolean; degraded?: boolean | undefined; message?: string | undefined },
  failureThreshold: number,
  successThreshold = 1,
): AppliedResult {
  if (!Number.isInteger(failureThreshold) || failureThreshold < 1) {
    throw new RangeError(`failure threshold must be an integer >= 1, got ${failureThreshold}`);
  }
  if (!Number.isInteger(successThreshold) || successThreshold < 1) {
    throw new RangeError(`success threshold must be an integer >= 1, got ${successThreshold}`);
  }
  if (result.success) {
    const held = holdRecovery(snapshot, result.degraded === true, successThreshold);
    if (held) return held;
  }
  if (result.success && result.degraded) {
    const next: CheckStateSnapshot = { state: 'degraded', consecutive_failures: 0 };
    return {
      next,
      changed: snapshot.state !== 'degraded',
      reason: `degraded: ${result.message || 'check degraded'}`,
    };
  }
  if (result.success) {
    const next: CheckStateSnapshot = { state: 'up', consecutive_failures: 0 };
    const reason =
      snapshot.state === 'unknown'
        ? 'first result: check succeeded'
        : successThreshold > 1 && snapshot.state !== 'up'
          ? `${successThreshold} consecutive successes (success threshold ${successThreshold})`
          : 'check succeeded';
    return { next, changed: snapshot.state !== 'up', reason };
  }
  const failures = snapshot.consecutive_failures + 1;
  const state: CheckState = failures >= failureThreshold ? 'down' : snapshot.state;
  const noun = failures === 1 ? 'failure' : 'failures';
  return {
    next: { state, consecutive_failures: failures },
    changed: state !== snapshot.state,
    reason: `${failures} consecutive ${noun} (threshold ${failureThreshold})`,
  };
}

/** How good a state is, for "is this success a recovery": only a move to a better state waits. */
const RANK: Record<CheckState, number> = { unknown: 0, down: 1, degraded: 2, up: 3 };

/**
 * A success that would move a down or degraded check to a better state before `successThreshold`
 * successes in a row: the check keeps its state and counts (undefined: the success applies).
 */
function holdRecovery(
  snapshot: CheckStateSnapshot,
  degraded: boolean,
  successThreshold: number,
): AppliedResult | undefined {
  const target: CheckState = degraded ? 'degraded' : 'up';
  if (snapshot.state === 'unknown' || RANK[target] <= RANK[snapshot.state]) return undefined;
  const successes = (snapshot.consecutive_successes ?? 0) + 1;
  if (successes >= successThreshold) return undefined;
  return {
    next: { state: snapshot.state, consecutive_failures: 0, consecutive_successes: successes },
    changed: false,
    reason: `${successes} consecutive ${successes === 1 ? 'success' : 'successes'} (success threshold ${successThreshold})`,
  };
}

/** The snapshot of a check that has no results yet. */
export function initialCheckState(): CheckStateSnapshot {
  return { state: 'unknown', consecutive_failures: 0 };
}
