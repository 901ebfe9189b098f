import { describe, expect, it } from 'vitest';
import {
  type AppliedResult,
  applyResult,
  type CheckState,
  type CheckStateSnapshot,
  initialCheckState,
} from '../../lib/domain/states/check-state.ts';

const ok = { success: true };
const fail = { success: false };

function snapshot(state: CheckState, consecutive_failures = 0): CheckStateSnapshot {
  return { state, consecutive_failures };
}

/** Applies results in order and returns every step's outcome. */
function run(results: readonly boolean[], threshold: number): AppliedResult[] {
  const steps: AppliedResult[] = [];
  let current = initialCheckState();
  for (const success of results) {
    const step = applyResult(current, { success }, threshold);
    steps.push(step);
    current = step.next;
  }
  return steps;
}

describe('applyResult: SPEC.md "States and transitions" table', () => {
  it('moves up to down when consecutive failures reach the threshold, counter at threshold', () => {
    const step = applyResult(snapshot('up', 2), fail, 3);

    expect(step).toEqual({
      next: { state: 'down', consecutive_failures: 3 },
      changed: true,
      reason: '3 consecutive failures (threshold 3)',
    });
  });

  it('keeps up and increments the counter when failures stay below the threshold', () => {
    const step = applyResult(snapshot('up', 0), fail, 3);

    expect(step).toEqual({
      next: { state: 'up', consecutive_failures: 1 },
      changed: false,
      reason: '1 consecutive failure (threshold 3)',
    });
  });

  it('moves down to up on any single success and resets the counter', () => {
    const step = applyResult(snapshot('down', 7), ok, 3);

    expect(step).toEqual({
      next: { state: 'up', consecutive_failures: 0 },
      changed: true,
      reason: 'check succeeded',
    });
  });

  it('keeps up on a success and resets the counter to zero', () => {
    const step = applyResult(snapshot('up', 2), ok, 3);

    expect(step).toEqual({
      next: { state: 'up', consecutive_failures: 0 },
      changed: false,
      reason: 'check succeeded',
    });
  });

  it('treats a synthetic failed result (silent push check) by the normal failure rule', () => {
    const steps = run([true, false, false, false], 3);

    expect(steps.map((s) => s.next.state)).toEqual(['up', 'up', 'up', 'down']);
  });

  it('recovers a down push check on a success after silence', () => {
    const step = applyResult(snapshot('down', 12), ok, 3);

    expect(step.next).toEqual({ state: 'up', consecutive_failures: 0 });
    expect(step.changed).toBe(true);
  });

  it('follows the SPEC.md example: threshold 3, failures 1 and 2 unchanged, 3 down, success up', () => {
    const steps = run([true, false, false, false, true], 3);

    expect(steps.slice(1).map((s) => [s.next.state, s.next.consecutive_failures, s.changed])).toEqual([
      ['up', 1, false],
      ['up', 2, false],
      ['down', 3, true],
      ['up', 0, true],
    ]);
  });
});

describe('applyResult: rules where SPEC.md is silent', () => {
  it('starts a new check unknown with no failures', () => {
    expect(initialCheckState()).toEqual({ state: 'unknown', consecutive_failures: 0 });
  });

  it('moves unknown to up on the first success, with a first-result reason', () => {
    const step = applyResult(initialCheckState(), ok, 3);

    expect(step).toEqual({
      next: { state: 'up', consecutive_failures: 0 },
      changed: true,
      reason: 'first result: check succeeded',
    });
  });

  it('keeps unknown and counts failures while below the threshold', () => {
    const steps = run([false, false], 3);

    expect(steps.map((s) => [s.next.state, s.next.consecutive_failures, s.changed])).toEqual([
      ['unknown', 1, false],
      ['unknown', 2, false],
    ]);
  });

  it('moves unknown to down when failures reach the threshold', () => {
    const step = applyResult(snapshot('unknown', 2), fail, 3);

    expect(step).toEqual({
      next: { state: 'down', consecutive_failures: 3 },
      changed: true,
      reason: '3 consecutive failures (threshold 3)',
    });
  });

  it('moves unknown straight to down on a first failure with threshold 1', () => {
    const step = applyResult(initialCheckState(), fail, 1);

    expect(step).toEqual({
      next: { state: 'down', consecutive_failures: 1 },
      changed: true,
      reason: '1 consecutive failure (threshold 1)',
    });
  });

  it('keeps down and keeps counting on further failures', () => {
    const step = applyResult(snapshot('down', 3), fail, 3);

    expect(step).toEqual({
      next: { state: 'down', consecutive_failures: 4 },
      changed: false,
      reason: '4 consecutive failures (threshold 3)',
    });
  });

  it('keeps down on a failure after the threshold was raised above the counter', () => {
    const step = applyResult(snapshot('down', 3), fail, 10);

    expect(step.next).toEqual({ state: 'down', consecutive_failures: 4 });
    expect(step.changed).toBe(false);
  });

  it('moves up to down on the next failure after the threshold was lowered below the counter', () => {
    const step = applyResult(snapshot('up', 4), fail, 2);

    expect(step.next).toEqual({ state: 'down', consecutive_failures: 5 });
    expect(step.changed).toBe(true);
  });

  it('does not mutate the snapshot it is given', () => {
    const before = snapshot('up', 1);

    applyResult(before, fail, 2);

    expect(before).toEqual({ state: 'up', consecutive_failures: 1 });
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('rejects failure threshold %s', (threshold) => {
    expect(() => applyResult(initialCheckState(), ok, threshold)).toThrow(RangeError);
  });
});

describe('applyResult: every sequence of up to 8 results for thresholds 1 to 5', () => {
  /** All boolean sequences of exactly `length` results (true = success). */
  function sequences(length: number): boolean[][] {
    return Array.from({ length: 2 ** length }, (_, bits) =>
      Array.from({ length }, (_, i) => ((bits >> i) & 1) === 1),
    );
  }

  function expectedState(results: readonly boolean[], threshold: number): CheckState {
    const lastSuccess = results.lastIndexOf(true);
    const trailingFailures = results.length - 1 - lastSuccess;
    if (trailingFailures >= threshold) return 'down';
    return lastSuccess === -1 ? 'unknown' : 'up';
  }

  const cases = [1, 2, 3, 4, 5].flatMap((threshold) =>
    [0, 1, 2, 3, 4, 5, 6, 7, 8].flatMap((length) =>
      sequences(length).map((results) => ({ threshold, results })),
    ),
  );

  it('covers all 511 sequences of length 0 to 8 for each of the 5 thresholds', () => {
    expect(cases).toHaveLength(5 * (2 ** 9 - 1));
  });

  it('is down iff the trailing failures reach the threshold, unknown iff no success yet and below it, up otherwise', () => {
    for (const { threshold, results } of cases) {
      const steps = run(results, threshold);
      const final = steps.at(-1)?.next ?? initialCheckState();

      expect(final.state, `${threshold}: ${results}`).toBe(expectedState(results, threshold));
    }
  });

  it('counts exactly the trailing failures', () => {
    for (const { threshold, results } of cases) {
      const final = run(results, threshold).at(-1)?.next ?? initialCheckState();
      const trailing = results.length - 1 - results.lastIndexOf(true);

      expect(final.consecutive_failures, `${threshold}: ${results}`).toBe(trailing);
    }
  });

  it('reports changed exactly when the state differs from the previous step', () => {
    for (const { threshold, results } of cases) {
      let previous: CheckState = 'unknown';
      for (const [i, step] of run(results, threshold).entries()) {
        expect(step.changed, `${threshold}: ${results} step ${i}`).toBe(step.next.state !== previous);
        previous = step.next.state;
      }
    }
  });

  it('never returns to unknown once a check has left it', () => {
    for (const { threshold, results } of cases) {
      const states = run(results, threshold).map((s) => s.next.state);
      const firstKnown = states.findIndex((s) => s !== 'unknown');

      if (firstKnown >= 0) expect(states.slice(firstKnown)).not.toContain('unknown');
    }
  });
});

describe('degraded (issue 29: a slow or near-expiry success)', () => {
  const slow = { success: true, degraded: true, message: 'latency 900 ms is above degraded_latency_ms 500' };
  const fail = { success: false };

  it('a degraded success makes any state degraded with the counter reset, saying why', () => {
    for (const state of ['unknown', 'up', 'down'] as const) {
      const applied = applyResult({ state, consecutive_failures: 2 }, slow, 3);
      expect(applied).toEqual({
        next: { state: 'degraded', consecutive_failures: 0 },
        changed: true,
        reason: 'degraded: latency 900 ms is above degraded_latency_ms 500',
      });
    }
  });

  it('stays degraded on more degraded successes (no new transition) and below the threshold of failures', () => {
    expect(applyResult({ state: 'degraded', consecutive_failures: 0 }, slow, 3).changed).toBe(false);
    const once = applyResult({ state: 'degraded', consecutive_failures: 0 }, fail, 3);
    expect(once.next).toEqual({ state: 'degraded', consecutive_failures: 1 });
    expect(once.changed).toBe(false);
    const third = applyResult({ state: 'degraded', consecutive_failures: 2 }, fail, 3);
    expect(third.next.state).toBe('down');
  });

  it('a plain success takes degraded back to up', () => {
    const applied = applyResult({ state: 'degraded', consecutive_failures: 0 }, ok, 3);
    expect(applied).toMatchObject({ next: { state: 'up', consecutive_failures: 0 }, changed: true });
  });
});

describe('applyResult: success_threshold (issue 35)', () => {
  const down = (consecutive_successes = 0): CheckStateSnapshot => ({
    state: 'down',
    consecutive_failures: 4,
    ...(consecutive_successes ? { consecutive_successes } : {}),
  });

  it('keeps a down check down until the threshold of successes in a row, then recovers', () => {
    const first = applyResult(down(), ok, 3, 3);
    expect(first).toEqual({
      next: { state: 'down', consecutive_failures: 0, consecutive_successes: 1 },
      changed: false,
      reason: '1 consecutive success (success threshold 3)',
    });
    const second = applyResult(first.next, ok, 3, 3);
    expect(second.next).toEqual({ state: 'down', consecutive_failures: 0, consecutive_successes: 2 });
    expect(second.changed).toBe(false);
    const third = applyResult(second.next, ok, 3, 3);
    expect(third).toEqual({
      next: { state: 'up', consecutive_failures: 0 },
      changed: true,
      reason: '3 consecutive successes (success threshold 3)',
    });
  });

  it('restarts the count on a failure, and the check stays down', () => {
    const counted = applyResult(down(2), fail, 3, 3);
    expect(counted.next).toEqual({ state: 'down', consecutive_failures: 5 });
    expect(counted.changed).toBe(false);
    expect(applyResult(counted.next, ok, 3, 3).next.state).toBe('down');
  });

  it('counts degraded successes toward a down check recovery and lands on the last result', () => {
    const degraded = { success: true, degraded: true, message: 'slow' };
    const first = applyResult(down(), degraded, 3, 2);
    expect(first.next).toEqual({ state: 'down', consecutive_failures: 0, consecutive_successes: 1 });
    const second = applyResult(first.next, degraded, 3, 2);
    expect(second.next).toEqual({ state: 'degraded', consecutive_failures: 0 });
    expect(second.changed).toBe(true);
  });

  it('holds degraded → up too, but not up → degraded', () => {
    const degradedNow: CheckStateSnapshot = { state: 'degraded', consecutive_failures: 0 };
    const held = applyResult(degradedNow, ok, 3, 2);
    expect(held.next).toEqual({ state: 'degraded', consecutive_failures: 0, consecutive_successes: 1 });
    expect(applyResult(held.next, ok, 3, 2).next.state).toBe('up');
    const worse = applyResult(snapshot('up'), { success: true, degraded: true }, 3, 5);
    expect(worse.next.state).toBe('degraded');
    expect(worse.changed).toBe(true);
  });

  it('moves unknown → up on the first success whatever the threshold, and never counts while up', () => {
    const first = applyResult(initialCheckState(), ok, 3, 10);
    expect(first.next).toEqual({ state: 'up', consecutive_failures: 0 });
    expect(first.changed).toBe(true);
    // A healthy check's snapshot does not move: a healthy slot writes nothing.
    expect(applyResult(first.next, ok, 3, 10).next).toEqual(first.next);
  });

  it('is SPEC behaviour at the default of 1', () => {
    expect(applyResult(down(), ok, 3).next).toEqual({ state: 'up', consecutive_failures: 0 });
  });

  it('refuses a threshold below 1', () => {
    expect(() => applyResult(down(), ok, 3, 0)).toThrow(RangeError);
  });
});
