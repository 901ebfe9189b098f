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
 * How an entity's checks make its state (DECISIONS.md "Alert model (wave 4)"): `worst` (the
 * default) lets the worst check win; `all_down` is the earlier rule, for redundant replicas.
 */
export const STATE_RULES = ['worst', 'all_down'] as const;
export type StateRule = (typeof STATE_RULES)[number];
export const DEFAULT_STATE_RULE: StateRule = 'worst';

/**
 * Aggregates an entity's state from its checks. Disabled checks are ignored, and so are enabled
 * checks still unknown: unknown when no enabled check has a known state (including no checks).
 *
 * `worst`: down when any known check is down, else degraded when any is degraded, else up.
 * `all_down` (DECISIONS.md "Checks and state"): degraded when any is degraded or known ones
 * disagree; down only when every known one is down.
 * (Choice) An unknown check does not move the entity, so adding a check to a failing entity
 * publishes no false change.
 */
export function aggregateEntityState(
  checks: readonly CheckStateInput[],
  rule: StateRule = DEFAULT_STATE_RULE,
): State {
  let up = 0;
  let down = 0;
  let degraded = false;
  for (const check of checks) {
    if (!check.enabled) continue;
    if (check.state === 'degraded') degraded = true;
    else if (check.state === 'up') up += 1;
    else if (check.state === 'down') down += 1;
  }
  if (rule === 'worst') {
    if (down > 0) return 'down';
    if (degraded) return 'degraded';
    return up > 0 ? 'up' : 'unknown';
  }
  if (degraded) return 'degraded';
  if (up === 0 && down === 0) return 'unknown';
  if (down === 0) return 'up';
  if (up === 0) return 'down';
  return 'degraded';
}

/** Compares the entity's previous aggregate with the aggregate of its checks after a result. */
export function transitionsFor(
  previous: State,
  checksAfter: readonly CheckStateInput[],
  rule: StateRule = DEFAULT_STATE_RULE,
): EntityTransition {
  const to = aggregateEntityState(checksAfter, rule);
  return { changed: to !== previous, from: previous, to };
}

/**
 * The check an entity's change names (DECISIONS.md "Alert truth (wave 5)", Cause): the first of
 * `movers` (the checks whose result or write moved it, most telling first) that is now in the
 * entity's new state, else the check in that state with the smallest id, so the choice never
 * depends on which check's result happened to be recorded. When no check is in it (`all_down`'s
 * mixed degraded, an entity left with no known check), the first mover.
 */
export function causingCheck(
  checkStates: Readonly<Record<string, State>>,
  next: State,
  movers: readonly string[],
): string {
  const mover = movers.find((id) => checkStates[id] === next);
  if (mover !== undefined) return mover;
  const inState = Object.keys(checkStates)
    .filter((id) => checkStates[id] === next)
    .sort();
  return inState[0] ?? movers[0] ?? '';
}
