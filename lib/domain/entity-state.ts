import type { CheckState, State } from './check-state.ts';

export interface CheckStateInput {
  enabled: boolean;
  state: CheckState;
}

export interface EntityTransition {
  changed: boolean;
  from: State;
  to: State;
}

/**
 * Aggregates an entity's state from its checks (DECISIONS.md "Checks and state").
 *
 * Disabled checks are ignored, and so are enabled checks still unknown: unknown when no enabled
 * check has a known state (including no checks at all); up when every known one is up; down when
 * every known one is down; degraded when any is degraded or known ones disagree. (Choice) An unknown check does not
 * turn a down entity into degraded, so adding a check to a failing entity publishes no false change.
 */
export function aggregateEntityState(checks: readonly CheckStateInput[]): State {
  let up = 0;
  let down = 0;
  let degraded = false;
  for (const check of checks) {
    if (!check.enabled) continue;
    if (check.state === 'degraded') degraded = true;
    else if (check.state === 'up') up += 1;
    else if (check.state === 'down') down += 1;
  }
  if (degraded) return 'degraded';
  if (up === 0 && down === 0) return 'unknown';
  if (down === 0) return 'up';
  if (up === 0) return 'down';
  return 'degraded';
}

/** Compares the entity's previous aggregate with the aggregate of its checks after a result. */
export function transitionsFor(previous: State, checksAfter: readonly CheckStateInput[]): EntityTransition {
  const to = aggregateEntityState(checksAfter);
  return { changed: to !== previous, from: previous, to };
}
