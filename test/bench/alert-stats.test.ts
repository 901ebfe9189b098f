import { describe, expect, it } from 'vitest';
import { type Arrival, countMatched, matchPhase, splitStages } from '../../bench/alert-stats.ts';

const event = (checkId: string, toState: string, transitionId: string, timestamp: string) =>
  JSON.stringify({ check_id: checkId, to_state: toState, transition_id: transitionId, timestamp });

const arrival = (readAtMs: number, body: string, signatureValid = true, delivery = 'dlv_1'): Arrival => ({
  readAtMs,
  body,
  signatureValid,
  delivery,
});

const T = Date.parse('2026-11-22T10:00:00.000Z');
const answered = new Map([
  ['chk_a', T + 10],
  ['chk_b', T + 12],
]);

describe('alert latency matching', () => {
  it('measures each alert from its 201 and from its event time', () => {
    const match = matchPhase(answered, 'down', [
      arrival(T + 40, event('chk_b', 'down', 'trn_b', '2026-11-22T10:00:00.005Z')),
      arrival(T + 25, event('chk_a', 'down', 'trn_a', '2026-11-22T10:00:00.004Z')),
    ]);
    expect(match.from201Ms).toEqual([28, 15]);
    expect(match.fromEventMs).toEqual([35, 21]);
    expect(match.missing).toBe(0);
    expect(match.alerts).toEqual([
      { transitionId: 'trn_b', eventMs: T + 5, readAtMs: T + 40 },
      { transitionId: 'trn_a', eventMs: T + 4, readAtMs: T + 25 },
    ]);
  });

  it('counts the first alert per check and the rest as duplicates', () => {
    const body = event('chk_a', 'down', 'trn_a', '2026-11-22T10:00:00.004Z');
    const match = matchPhase(answered, 'down', [arrival(T + 20, body), arrival(T + 30, body)]);
    expect(match.from201Ms).toEqual([10]);
    expect(match.duplicates).toBe(1);
    expect(match.missing).toBe(1);
  });

  it('leaves out arrivals of another state, another check or no event at all', () => {
    const match = matchPhase(answered, 'down', [
      arrival(T + 20, event('chk_a', 'up', 'trn_a', '2026-11-22T10:00:00.004Z')),
      arrival(T + 20, event('chk_z', 'down', 'trn_z', '2026-11-22T10:00:00.004Z')),
      arrival(T + 20, 'not json'),
      arrival(T + 20, '{"check_id":"chk_a"}'),
    ]);
    expect(match.foreign).toBe(4);
    expect(match.from201Ms).toEqual([]);
    expect(match.missing).toBe(2);
    expect(countMatched(answered, 'down', [])).toBe(0);
  });

  it('counts arrivals whose signature did not verify', () => {
    const match = matchPhase(answered, 'down', [
      arrival(T + 20, event('chk_a', 'down', 'trn_a', '2026-11-22T10:00:00.004Z'), false),
    ]);
    expect(match.badSignatures).toBe(1);
    expect(
      countMatched(answered, 'down', [
        arrival(T + 20, event('chk_a', 'down', 'trn_a', '2026-11-22T10:00:00.004Z')),
      ]),
    ).toBe(1);
  });

  it('splits each alert at its delivery record and skips alerts without one', () => {
    const stages = splitStages(
      [
        { transitionId: 'trn_a', eventMs: T, readAtMs: T + 50 },
        { transitionId: 'trn_b', eventMs: T, readAtMs: T + 70 },
      ],
      new Map([['trn_a', T + 20]]),
    );
    expect(stages).toEqual({ toRecordMs: [20], toReadMs: [30] });
  });
});
