import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LOCATION,
  decideSlot,
  defaultQuorum,
  type LocationReport,
  locationsOf,
  probesFromLocations,
  quorumOf,
  slotDeadlineMs,
  withLateReport,
} from '../../lib/domain/states/quorum.ts';

/**
 * The quorum rules of a located check's slot (DECISIONS.md "Probe locations (wave 4)"): a failure
 * counts when at least `quorum` locations report failure, a success when more than n − quorum
 * report success; otherwise the slot waits, or at its deadline is inconclusive.
 */

const three = { locations: ['default', 'office', 'eu-west-1'], quorum: 2 };

const ok = (location: string, latency_ms = 100): LocationReport => ({
  location,
  success: true,
  status_code: 200,
  latency_ms,
  error_message: '',
});
const failed = (location: string, error_message: string, status_code = 0): LocationReport => ({
  location,
  success: false,
  status_code,
  latency_ms: 900,
  error_message,
});
const slow = (location: string): LocationReport => ({
  ...ok(location, 2500),
  degraded: true,
  error_message: 'slow: 2500 ms',
});

describe('decideSlot', () => {
  it('decides a success from 2 of 3 when one location failed (quorum 2)', () => {
    const decision = decideSlot(three, [failed('office', '', 503), ok('default'), ok('eu-west-1')], false);
    expect(decision).toMatchObject({ kind: 'success', degraded: false, status_code: 200 });
    if (decision.kind === 'wait') throw new Error('decided');
    expect(decision.message).toBe('up from 2 of 3 locations: office 503; default ok, eu-west-1 ok');
    expect(decision.locations).toEqual([
      { location: 'default', outcome: 'up', status_code: 200, latency_ms: 100, error_message: '' },
      { location: 'office', outcome: 'down', status_code: 503, latency_ms: 900, error_message: '' },
      { location: 'eu-west-1', outcome: 'up', status_code: 200, latency_ms: 100, error_message: '' },
    ]);
  });

  it('decides a failure as soon as 2 locations failed, the third not heard from, naming them', () => {
    const decision = decideSlot(three, [failed('eu-west-1', 'timeout'), failed('office', '', 503)], false);
    expect(decision).toMatchObject({
      kind: 'failure',
      status_code: 0,
      message: 'down from 2 of 3 locations: office 503, eu-west-1 timeout; default no report',
    });
    if (decision.kind === 'wait') throw new Error('decided');
    expect(decision.locations.map((l) => l.outcome)).toEqual(['unknown', 'down', 'down']);
  });

  it('waits with 1 ok and 1 failure while the slot is open', () => {
    expect(decideSlot(three, [ok('default'), failed('office', 'refused')], false)).toEqual({ kind: 'wait' });
  });

  it('records 1 ok, 1 failure and 1 missing at the deadline as inconclusive', () => {
    const decision = decideSlot(three, [ok('default'), failed('office', 'refused')], true);
    expect(decision).toMatchObject({
      kind: 'inconclusive',
      message: 'inconclusive: 2 of 3 locations reported: office refused; default ok, eu-west-1 no report',
    });
    if (decision.kind === 'wait') throw new Error('decided');
    expect(decision.locations.find((l) => l.location === 'eu-west-1')).toEqual({
      location: 'eu-west-1',
      outcome: 'unknown',
      status_code: null,
      latency_ms: null,
      error_message: '',
    });
  });

  it('records 1 report of 3 at the deadline as inconclusive, whatever it said', () => {
    expect(decideSlot(three, [ok('default')], true)).toMatchObject({ kind: 'inconclusive' });
    expect(decideSlot(three, [failed('office', 'x')], true)).toMatchObject({ kind: 'inconclusive' });
    expect(decideSlot(three, [ok('default')], false)).toEqual({ kind: 'wait' });
  });

  it('decides a failure from one location when the quorum is 1, and a success only from all', () => {
    const check = { locations: ['default', 'office'], quorum: 1 };
    expect(decideSlot(check, [failed('default', 'refused')], false)).toMatchObject({
      kind: 'failure',
      message: 'down from 1 of 2 locations: default refused; office no report',
    });
    // One failure could still come: a success needs more than n − quorum = 1 location.
    expect(decideSlot(check, [ok('default')], false)).toEqual({ kind: 'wait' });
    expect(decideSlot(check, [ok('default')], true)).toMatchObject({ kind: 'inconclusive' });
    expect(decideSlot(check, [ok('default'), ok('office')], false)).toMatchObject({ kind: 'success' });
  });

  it('decides a one-location check from its one report', () => {
    expect(decideSlot({ locations: ['office'] }, [ok('office')], false)).toMatchObject({ kind: 'success' });
    expect(decideSlot({ locations: ['office'] }, [], true)).toMatchObject({ kind: 'inconclusive' });
  });

  it('is degraded when at least quorum locations were slow', () => {
    expect(decideSlot(three, [slow('default'), slow('office'), ok('eu-west-1')], false)).toMatchObject({
      kind: 'success',
      degraded: true,
      message: 'degraded from 2 of 3 locations: default slow: 2500 ms, office slow: 2500 ms; eu-west-1 ok',
    });
    expect(decideSlot(three, [slow('default'), ok('office')], false)).toMatchObject({
      kind: 'success',
      degraded: false,
    });
  });

  it('takes the median latency of the locations that reported', () => {
    const decision = decideSlot(three, [ok('default', 100), ok('office', 300), ok('eu-west-1', 200)], false);
    expect(decision).toMatchObject({ kind: 'success', latency_ms: 200, message: '' });
  });

  it('ignores reports of locations the check does not name', () => {
    expect(decideSlot(three, [failed('us-east-1', 'x'), failed('ap-south-1', 'y')], false)).toEqual({
      kind: 'wait',
    });
  });
});

describe('quorums and locations', () => {
  it('defaults to 1, 2, 2, 3 for 1 to 4 locations', () => {
    expect([1, 2, 3, 4].map(defaultQuorum)).toEqual([1, 2, 2, 3]);
    expect(quorumOf({ locations: ['default', 'a', 'b', 'c'] })).toBe(3);
    expect(quorumOf({ locations: ['default', 'a', 'b'], quorum: null })).toBe(2);
    expect(quorumOf({ locations: ['default', 'a', 'b'], quorum: 1 })).toBe(1);
  });

  it('reads a check without locations as default-only, which runs in a cell', () => {
    expect(locationsOf({})).toEqual([DEFAULT_LOCATION]);
    expect(locationsOf({ locations: [] })).toEqual([DEFAULT_LOCATION]);
    expect(probesFromLocations({})).toBe(false);
    expect(probesFromLocations({ locations: ['default'] })).toBe(false);
    expect(probesFromLocations({ locations: ['office'] })).toBe(true);
    expect(probesFromLocations({ locations: ['default', 'office'] })).toBe(true);
  });

  it('puts the deadline at the interval or 60 s, whichever is less, plus the timeout', () => {
    const slot = Date.parse('2026-03-02T09:00:00.000Z');
    expect(slotDeadlineMs(slot, { interval_seconds: 30, timeout_ms: 5000 })).toBe(slot + 35_000);
    expect(slotDeadlineMs(slot, { interval_seconds: 300, timeout_ms: 10_000 })).toBe(slot + 70_000);
  });

  it('puts a late report in the place of its unknown part, and leaves a reported part alone', () => {
    const lab: LocationReport = {
      location: 'lab',
      success: false,
      status_code: 503,
      latency_ms: 9,
      error_message: 'boom',
    };
    const decision = decideSlot({ locations: ['lab', 'office'], quorum: 1 }, [lab], false);
    if (decision.kind === 'wait') throw new Error('decided at once');
    const office: LocationReport = {
      location: 'office',
      success: true,
      status_code: 200,
      latency_ms: 30,
      error_message: '',
    };
    const decided = { success: false, error_message: decision.message, locations: decision.locations };
    expect(decision.message).toBe('down from 1 of 2 locations: lab boom; office no report');
    expect(withLateReport(decided, office)).toEqual({
      locations: [
        decision.locations[0],
        { location: 'office', outcome: 'up', status_code: 200, latency_ms: 30, error_message: '' },
      ],
      message: 'down from 1 of 2 locations: lab boom; office ok',
    });
    expect(withLateReport(decided, { ...lab, success: true })).toBeUndefined();
    expect(withLateReport(decided, { ...office, location: 'elsewhere' })).toBeUndefined();
  });

  it("names a late failure in an up slot's message, and keeps an inconclusive slot's", () => {
    const decision = decideSlot(three, [ok('default'), ok('office')], false);
    if (decision.kind === 'wait') throw new Error('decided at once');
    expect(decision.message).toBe('');
    const late: LocationReport = { ...ok('eu-west-1'), success: false, error_message: 'timeout' };
    const decided = { success: true, error_message: decision.message, locations: decision.locations };
    expect(withLateReport(decided, late)?.message).toBe(
      'up from 2 of 3 locations: eu-west-1 timeout; default ok, office ok',
    );
    const inconclusive = { ...decided, success: false, inconclusive: true, error_message: 'inconclusive: …' };
    expect(withLateReport(inconclusive, late)?.message).toBe('inconclusive: …');
  });
});
