import { describe, expect, it } from 'vitest';
import {
  applyFlapChange,
  emptyFlapHistory,
  type FlapHistory,
  MAX_KEPT_CHANGES,
  settleFlap,
} from '../../lib/domain/states/flap.ts';

/** The pure flap logic on a fake clock (ms): issue 35 item 5; the settle time, issue 75 point 10. */

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const MINUTE = 60_000;
const policy = { changes: 6, window_seconds: 1800, settle_seconds: 300 };

/** Applies changes `at` the given minutes; returns the history and every outcome. */
function run(minutes: number[], p = policy, start: FlapHistory = emptyFlapHistory()) {
  let history = start;
  const outcomes: string[] = [];
  minutes.forEach((m, i) => {
    const at = T0 + m * MINUTE;
    const step = applyFlapChange(history, { id: `trn_${i}_${m}`, at_ms: at }, at, p);
    history = step.history;
    outcomes.push(step.outcome);
  });
  return { history, outcomes };
}

describe('applyFlapChange', () => {
  it('passes up to N changes in the window and starts flapping at the N+1th', () => {
    const { history, outcomes } = run([0, 1, 2, 3, 4, 5, 6]);
    expect(outcomes).toEqual(['pass', 'pass', 'pass', 'pass', 'pass', 'pass', 'start']);
    expect(history.flapping_since_ms).toBe(T0 + 6 * MINUTE);
    // The settle time (5 minutes) after the latest change, not the window.
    expect(history.settle_due_ms).toBe(T0 + 11 * MINUTE);
  });

  it('counts only the changes inside the window', () => {
    // Seven changes, but never more than six within 30 minutes.
    const { outcomes, history } = run([0, 10, 20, 29, 31, 40, 50]);
    expect(outcomes.every((o) => o === 'pass')).toBe(true);
    expect(history.changes.map((c) => (c.at_ms - T0) / MINUTE)).toEqual([29, 31, 40, 50]);
  });

  it('holds while flapping and moves the settle look the settle time past each change', () => {
    const flapping = run([0, 1, 2, 3, 4, 5, 6]).history;
    const at = T0 + 20 * MINUTE;
    const step = applyFlapChange(flapping, { id: 'trn_late', at_ms: at }, at, policy);
    expect(step.outcome).toBe('hold');
    expect(step.history.settle_due_ms).toBe(at + 5 * MINUTE);
    expect(step.history.flapping_since_ms).toBe(flapping.flapping_since_ms);
  });

  it('counts a redelivered change once and does not move the settle look for it', () => {
    const five = run([0, 1, 2, 3, 4, 5]).history;
    const again = applyFlapChange(five, { id: 'trn_5_5', at_ms: T0 + 5 * MINUTE }, T0 + 8 * MINUTE, policy);
    expect(again.outcome).toBe('pass');
    expect(again.history.changes).toHaveLength(6);
  });

  it('is off with changes 0, and clears a history kept before', () => {
    const flapping = run([0, 1, 2, 3, 4, 5, 6]).history;
    const off = { changes: 0, window_seconds: 1800, settle_seconds: 300 };
    const step = applyFlapChange(flapping, { id: 'x', at_ms: T0 + 7 * MINUTE }, T0 + 7 * MINUTE, off);
    expect(step).toEqual({ history: emptyFlapHistory(), outcome: 'pass' });
  });

  it('keeps a bounded list', () => {
    const many = Array.from({ length: 200 }, (_, i) => i / 10);
    const { history } = run(many, { changes: 50, window_seconds: 86_400, settle_seconds: 300 });
    expect(history.changes).toHaveLength(MAX_KEPT_CHANGES);
  });
});

describe('settleFlap', () => {
  const flapping = run([0, 1, 2, 3, 4, 5, 6]).history;
  const due = flapping.settle_due_ms ?? 0;

  it('waits before the look is due, tells the settled state after the settle time, ends flapping after the window', () => {
    expect(settleFlap(flapping, due, due - 1, policy).outcome).toBe('wait');
    // Stable for the settle time (5 minutes after the latest change): told, still flapping until
    // the window (30 minutes after it) passes without a change.
    const settled = settleFlap(flapping, due, due, policy);
    expect(settled).toEqual({
      history: { ...flapping, settle_due_ms: T0 + 36 * MINUTE },
      outcome: 'settled',
    });
    const end = T0 + 36 * MINUTE;
    expect(settleFlap(settled.history, end, end, policy)).toEqual({
      history: emptyFlapHistory(),
      outcome: 'ended',
    });
  });

  it('holds a change after the settled state and settles it the settle time later, with no second notice', () => {
    const settled = settleFlap(flapping, due, due, policy).history;
    const at = T0 + 15 * MINUTE;
    const step = applyFlapChange(settled, { id: 'trn_after', at_ms: at }, at, policy);
    expect(step.outcome).toBe('hold');
    expect(step.history.settle_due_ms).toBe(at + 5 * MINUTE);
    expect(settleFlap(step.history, at + 5 * MINUTE, at + 5 * MINUTE, policy).outcome).toBe('settled');
  });

  it('caps the settle time at the window (the look is then the end)', () => {
    const long = { ...policy, window_seconds: 600, settle_seconds: 3600 };
    const history = run([0, 1, 2, 3, 4, 5, 6], long).history;
    expect(history.settle_due_ms).toBe(T0 + 16 * MINUTE);
    expect(settleFlap(history, T0 + 16 * MINUTE, T0 + 16 * MINUTE, long).outcome).toBe('ended');
  });

  it('is stale when a later change moved the look, or when not flapping', () => {
    const later = applyFlapChange(
      flapping,
      { id: 'late', at_ms: T0 + 10 * MINUTE },
      T0 + 10 * MINUTE,
      policy,
    );
    expect(settleFlap(later.history, due, due, policy).outcome).toBe('stale');
    expect(settleFlap(emptyFlapHistory(), due, due, policy).outcome).toBe('stale');
  });
});
