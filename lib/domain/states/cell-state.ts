import {
  applyResult,
  type CheckState,
  type CheckStateSnapshot,
  initialCheckState,
  sameSnapshot,
} from './check-state.ts';

/**
 * One slot of a cell through the per-check state machine (pure). A cell keeps the snapshot of each
 * member; a slot in which every member's snapshot stays as it was changes nothing, so the worker
 * writes only the slot's results (no state item, no transaction). That is the healthy case.
 */

export type MemberStates = Readonly<Record<string, CheckStateSnapshot>>;

/** One member's transition in a slot: what the check's transition record says. */
export interface MemberTransition {
  check_id: string;
  from: CheckState;
  to: CheckState;
  reason: string;
}

export interface CellSlotEvaluation {
  /** Every member's snapshot after the slot (members without a result keep theirs). */
  next: Record<string, CheckStateSnapshot>;
  /** True when any member's snapshot (state or a counter) moved: the state item must be written. */
  changed: boolean;
  transitions: MemberTransition[];
}

/**
 * Applies a slot's outcomes to the members' snapshots, each with its own failure threshold and
 * success threshold (absent: 1). A member absent from `states` (it joined the cell since) starts unknown.
 */
export function evaluateCellSlot(
  states: MemberStates,
  outcomes: readonly { check_id: string; success: boolean; degraded?: boolean; message?: string }[],
  thresholds: Readonly<Record<string, number>>,
  successThresholds: Readonly<Record<string, number>> = {},
): CellSlotEvaluation {
  const next: Record<string, CheckStateSnapshot> = { ...states };
  const transitions: MemberTransition[] = [];
  let changed = false;
  for (const outcome of outcomes) {
    const threshold = thresholds[outcome.check_id];
    if (threshold === undefined) continue;
    const before = states[outcome.check_id] ?? initialCheckState();
    const applied = applyResult(before, outcome, threshold, successThresholds[outcome.check_id] ?? 1);
    next[outcome.check_id] = applied.next;
    if (!(outcome.check_id in states) || !sameSnapshot(applied.next, before)) {
      changed = true;
    }
    if (applied.changed) {
      transitions.push({
        check_id: outcome.check_id,
        from: before.state,
        to: applied.next.state,
        reason: applied.reason,
      });
    }
  }
  return { next, changed, transitions };
}
