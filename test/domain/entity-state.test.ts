import { describe, expect, it } from 'vitest';
import type { CheckState, State } from '../../lib/domain/states/check-state.ts';
import {
  aggregateEntityState,
  type CheckStateInput,
  causingCheck,
  transitionsFor,
} from '../../lib/domain/states/entity-state.ts';

const on = (state: CheckState): CheckStateInput => ({ enabled: true, state });
const off = (state: CheckState): CheckStateInput => ({ enabled: false, state });
/** The earlier rule, kept as `state_rule: "all_down"` (issue 35). */
const allDown = (checks: readonly CheckStateInput[]) => aggregateEntityState(checks, 'all_down');

describe('aggregateEntityState under all_down', () => {
  it.each<[string, CheckStateInput[], State]>([
    ['no checks', [], 'unknown'],
    ['only unknown checks', [on('unknown'), on('unknown')], 'unknown'],
    ['only disabled checks, even up and down ones', [off('up'), off('down')], 'unknown'],
    ['all enabled checks up', [on('up'), on('up')], 'up'],
    ['all enabled checks down', [on('down'), on('down')], 'down'],
    ['enabled checks up and down', [on('up'), on('down')], 'degraded'],
    ['up checks beside an unknown one', [on('up'), on('unknown')], 'up'],
    ['down checks beside an unknown one', [on('down'), on('unknown')], 'down'],
    ['up, down and unknown checks', [on('up'), on('down'), on('unknown')], 'degraded'],
    ['up checks beside a disabled down one', [on('up'), off('down')], 'up'],
    ['down checks beside a disabled up one', [on('down'), off('up')], 'down'],
    ['an unknown check beside a disabled up one', [on('unknown'), off('up')], 'unknown'],
  ])('is %s → %s', (_label, checks, expected) => {
    expect(allDown(checks)).toBe(expected);
  });

  describe('every combination of up to 4 checks, enabled or disabled, unknown, up or down', () => {
    const options: CheckStateInput[] = (['unknown', 'up', 'down'] as const).flatMap((state) => [
      on(state),
      off(state),
    ]);

    function combinations(length: number): CheckStateInput[][] {
      if (length === 0) return [[]];
      return combinations(length - 1).flatMap((rest) => options.map((check) => [check, ...rest]));
    }

    /** An independent oracle: the set of distinct known states among enabled checks. */
    function oracle(checks: readonly CheckStateInput[]): State {
      const known = new Set(checks.filter((c) => c.enabled && c.state !== 'unknown').map((c) => c.state));
      if (known.size === 0) return 'unknown';
      if (known.size === 2) return 'degraded';
      return [...known][0] ?? 'unknown';
    }

    const all = [0, 1, 2, 3, 4].flatMap((length) => combinations(length));

    it('covers 1,555 combinations (6^0 + 6^1 + 6^2 + 6^3 + 6^4)', () => {
      expect(all).toHaveLength(1555);
    });

    it('matches the oracle for every combination', () => {
      for (const checks of all) {
        expect(allDown(checks), JSON.stringify(checks)).toBe(oracle(checks));
      }
    });

    it('does not depend on the order of the checks', () => {
      for (const checks of all) {
        expect(allDown([...checks].reverse())).toBe(allDown(checks));
      }
    });

    it('does not change when a disabled check is added', () => {
      for (const checks of all) {
        for (const extra of options.filter((c) => !c.enabled)) {
          expect(allDown([...checks, extra])).toBe(allDown(checks));
        }
      }
    });

    it('is degraded only when at least one enabled check is up and one is down', () => {
      for (const checks of all) {
        const enabled = checks.filter((c) => c.enabled);
        const mixed = enabled.some((c) => c.state === 'up') && enabled.some((c) => c.state === 'down');

        expect(allDown(checks) === 'degraded').toBe(mixed);
      }
    });
  });
});

describe('transitionsFor', () => {
  it('reports a change from up to down when the only check goes down', () => {
    expect(transitionsFor('up', [on('down')])).toEqual({ changed: true, from: 'up', to: 'down' });
  });

  it('reports a change from up to down when one of two checks goes down (worst check wins)', () => {
    expect(transitionsFor('up', [on('up'), on('down')])).toEqual({ changed: true, from: 'up', to: 'down' });
  });

  it('reports a change from up to degraded when one of two checks goes down under all_down', () => {
    expect(transitionsFor('up', [on('up'), on('down')], 'all_down')).toEqual({
      changed: true,
      from: 'up',
      to: 'degraded',
    });
  });

  it('reports a change from unknown to up on the first success', () => {
    expect(transitionsFor('unknown', [on('up'), on('unknown')])).toEqual({
      changed: true,
      from: 'unknown',
      to: 'up',
    });
  });

  it('reports a recovery from down to up', () => {
    expect(transitionsFor('down', [on('up')])).toEqual({ changed: true, from: 'down', to: 'up' });
  });

  it('reports no change when the aggregate stays the same', () => {
    expect(transitionsFor('degraded', [on('up'), on('down'), on('unknown')], 'all_down')).toEqual({
      changed: false,
      from: 'degraded',
      to: 'degraded',
    });
  });

  it('reports changed exactly when the new aggregate differs from the previous one, for every pair', () => {
    const previousStates: State[] = ['unknown', 'up', 'down', 'degraded'];
    const afters: CheckStateInput[][] = [
      [],
      [on('up')],
      [on('down')],
      [on('up'), on('down')],
      [on('unknown')],
    ];

    for (const previous of previousStates) {
      for (const checks of afters) {
        const to = aggregateEntityState(checks);

        expect(transitionsFor(previous, checks)).toEqual({ changed: previous !== to, from: previous, to });
      }
    }
  });
});

describe('aggregateEntityState with degraded checks under all_down (issue 29)', () => {
  it.each<[string, CheckStateInput[], State]>([
    ['one degraded check', [on('degraded')], 'degraded'],
    ['degraded beside up', [on('up'), on('degraded')], 'degraded'],
    ['degraded beside down', [on('down'), on('degraded')], 'degraded'],
    ['degraded beside unknown', [on('unknown'), on('degraded')], 'degraded'],
    ['a disabled degraded check is ignored', [on('up'), off('degraded')], 'up'],
  ])('%s', (_name, checks, expected) => {
    expect(allDown(checks)).toBe(expected);
  });
});

describe('aggregateEntityState: the worst check wins (issue 35, the default rule)', () => {
  it.each<[string, CheckStateInput[], State]>([
    ['no checks', [], 'unknown'],
    ['only unknown checks', [on('unknown')], 'unknown'],
    ['all up', [on('up'), on('up')], 'up'],
    ['one down beside up', [on('up'), on('down')], 'down'],
    ['down beside degraded (the hidden outage)', [on('degraded'), on('down')], 'down'],
    ['degraded beside up', [on('up'), on('degraded')], 'degraded'],
    ['down beside unknown', [on('down'), on('unknown')], 'down'],
    ['a disabled down check is ignored', [on('up'), off('down')], 'up'],
  ])('%s', (_name, checks, expected) => {
    expect(aggregateEntityState(checks)).toBe(expected);
    expect(aggregateEntityState(checks, 'worst')).toBe(expected);
  });

  it('is the worst known state among enabled checks, for every combination of up to 3 checks', () => {
    const options = (['unknown', 'up', 'degraded', 'down'] as const).flatMap((s) => [on(s), off(s)]);
    const rank: Record<CheckState, number> = { unknown: 0, up: 1, degraded: 2, down: 3 };
    let all: CheckStateInput[][] = [[]];
    for (let n = 0; n < 3; n += 1) all = [...all, ...all.flatMap((rest) => options.map((c) => [c, ...rest]))];
    for (const checks of all) {
      const worst = checks
        .filter((c) => c.enabled)
        .reduce<CheckState>((w, c) => (rank[c.state] > rank[w] ? c.state : w), 'unknown');
      expect(aggregateEntityState(checks), JSON.stringify(checks)).toBe(worst);
    }
  });
});

describe('causingCheck: the check an entity change names (issue 51)', () => {
  it('is the moving check when it is in the new state', () => {
    expect(causingCheck({ chk_b: 'down', chk_a: 'down' }, 'down', ['chk_b'])).toBe('chk_b');
  });

  it('is the check in the new state, not the moving one, when the moving one is better (a first success beside a degraded check)', () => {
    expect(causingCheck({ chk_slow: 'degraded', chk_fast: 'up' }, 'degraded', ['chk_fast'])).toBe('chk_slow');
  });

  it('prefers a check moved by the same write over one already in the state', () => {
    const states = { chk_a: 'degraded', chk_b: 'degraded', chk_c: 'up' } as const;
    expect(causingCheck(states, 'degraded', ['chk_c', 'chk_b'])).toBe('chk_b');
  });

  it('picks the smallest id among the checks in the state, whatever their order', () => {
    expect(causingCheck({ chk_c: 'down', chk_b: 'up', chk_a: 'down' }, 'down', ['chk_b'])).toBe('chk_a');
    expect(causingCheck({ chk_a: 'down', chk_b: 'up', chk_c: 'down' }, 'down', ['chk_b'])).toBe('chk_a');
  });

  it('is the moving check when no check is in the new state (all_down mixed, the last check gone)', () => {
    expect(causingCheck({ chk_a: 'up', chk_b: 'down' }, 'degraded', ['chk_a'])).toBe('chk_a');
    expect(causingCheck({}, 'unknown', ['chk_gone'])).toBe('chk_gone');
  });
});
