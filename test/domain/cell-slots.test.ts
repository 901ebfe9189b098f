import { describe, expect, it } from 'vitest';
import { cellSlotsBetween, nextCellSlot } from '../../lib/domain/schedules/cell-slots.ts';
import { phaseOffsetMs } from '../../lib/domain/schedules/schedule.ts';
import { evaluateCellSlot } from '../../lib/domain/states/cell-state.ts';

const cell = { id: 'cel_01JD0000000000000000000000', interval_seconds: 60 };
const MINUTE = 60_000;
const T0 = Date.parse('2026-01-01T00:00:00.000Z');

describe('cell slots', () => {
  it('runs on the cell phase, one slot per interval', () => {
    const phase = phaseOffsetMs(cell.id, 60);
    expect(nextCellSlot(cell, T0)).toBe(T0 + phase);
    expect(cellSlotsBetween(cell, T0, T0 + 3 * MINUTE)).toEqual([
      T0 + phase,
      T0 + MINUTE + phase,
      T0 + 2 * MINUTE + phase,
    ]);
  });

  it('sends nothing twice: a window starts after the last slot sent', () => {
    const first = cellSlotsBetween(cell, T0, T0 + MINUTE);
    const second = cellSlotsBetween(cell, T0 + MINUTE, T0 + 2 * MINUTE);
    expect(first).toHaveLength(1);
    expect(second).toHaveLength(1);
    expect(second[0]).toBe((first[0] ?? 0) + MINUTE);
  });

  it('sends only the latest slots after a long outage', () => {
    const slots = cellSlotsBetween(cell, T0, T0 + 600 * MINUTE, 5);
    expect(slots).toHaveLength(5);
    expect(slots.at(-1)).toBeLessThanOrEqual(T0 + 600 * MINUTE);
  });
});

describe('a cell slot through the state machine', () => {
  const up = { state: 'up' as const, consecutive_failures: 0 };

  it('changes nothing when every member stays up', () => {
    const evaluation = evaluateCellSlot(
      { a: up, b: up },
      [
        { check_id: 'a', success: true },
        { check_id: 'b', success: true },
      ],
      { a: 3, b: 1 },
    );
    expect(evaluation).toEqual({ next: { a: up, b: up }, changed: false, transitions: [] });
  });

  it('counts a failure below the threshold as a change without a transition, and one at it as a transition', () => {
    const evaluation = evaluateCellSlot(
      { a: up, b: up },
      [
        { check_id: 'a', success: false },
        { check_id: 'b', success: false },
      ],
      { a: 3, b: 1 },
    );
    expect(evaluation.changed).toBe(true);
    expect(evaluation.next).toEqual({
      a: { state: 'up', consecutive_failures: 1 },
      b: { state: 'down', consecutive_failures: 1 },
    });
    expect(evaluation.transitions).toEqual([
      { check_id: 'b', from: 'up', to: 'down', reason: '1 consecutive failure (threshold 1)' },
    ]);
  });

  it('starts a member that joined since unknown, and ignores outcomes of checks that left', () => {
    const evaluation = evaluateCellSlot(
      { a: up },
      [
        { check_id: 'new', success: true },
        { check_id: 'gone', success: false },
      ],
      { a: 3, new: 3 },
    );
    expect(evaluation.next).toEqual({ a: up, new: up });
    expect(evaluation.transitions).toEqual([
      { check_id: 'new', from: 'unknown', to: 'up', reason: 'first result: check succeeded' },
    ]);
  });

  it('keeps a down member down until its success threshold, storing the count (issue 35)', () => {
    const down = { state: 'down' as const, consecutive_failures: 3 };
    const first = evaluateCellSlot(
      { a: down, b: down },
      [
        { check_id: 'a', success: true },
        { check_id: 'b', success: true },
      ],
      { a: 3, b: 3 },
      { a: 2 },
    );
    // The count moved (the state item is written) but a is not up yet; b has the default of 1.
    expect(first.changed).toBe(true);
    expect(first.next.a).toEqual({ state: 'down', consecutive_failures: 0, consecutive_successes: 1 });
    expect(first.transitions.map((t) => t.check_id)).toEqual(['b']);
    const second = evaluateCellSlot(first.next, [{ check_id: 'a', success: true }], { a: 3, b: 3 }, { a: 2 });
    expect(second.next.a).toEqual({ state: 'up', consecutive_failures: 0 });
    expect(second.transitions).toEqual([
      { check_id: 'a', from: 'down', to: 'up', reason: '2 consecutive successes (success threshold 2)' },
    ]);
  });
});
