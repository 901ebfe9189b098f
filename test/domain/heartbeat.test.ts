import { describe, expect, it } from 'vitest';
import { cronProblem, isTimeZone } from '../../lib/domain/schedules/cron.ts';
import {
  deadlineAfterMissMs,
  type HeartbeatCheck,
  nextExpectedMs,
  pushDeadline,
  runAllowanceMs,
  scheduleIntervalSeconds,
} from '../../lib/domain/schedules/heartbeat.ts';
import { armedDeadlineMs, missedRun } from '../../lib/domain/schedules/heartbeat-miss.ts';

/**
 * Push deadlines on pure time: intervals, cron schedules read in their zone across both DST
 * changes (Europe/Berlin: 29 March and 25 October 2026; America/New_York: 8 March and 1 November
 * 2026), runs started and not finished, rare and impossible expressions.
 */
const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | null | undefined) => (ms == null ? null : new Date(ms).toISOString());
const daily = (timezone: string, grace?: number): HeartbeatCheck => ({
  interval_seconds: 86_400,
  config: { schedule: { cron: '30 2 * * *', timezone }, ...(grace ? { grace_seconds: grace } : {}) },
});
const berlin = daily('Europe/Berlin');
const newYork = daily('America/New_York');

/** The chain of deadlines the dead man's switch walks from `firstMs`, one per missed run. */
const chain = (check: HeartbeatCheck, firstMs: number, count: number) => {
  const out = [firstMs];
  while (out.length < count) out.push(deadlineAfterMissMs(check, out.at(-1) ?? firstMs));
  return out.map(iso);
};

describe('push deadlines with an interval', () => {
  const hourly: HeartbeatCheck = { interval_seconds: 3600, config: {} };

  it('fails after the whole grace of silence (default twice the interval), not before the first report', () => {
    expect(pushDeadline(hourly, {})).toBeNull();
    expect(pushDeadline(hourly, { last_push_at: '2026-03-01T12:00:00.000Z' })).toEqual({
      atMs: at('2026-03-01T14:00:00.000Z'),
      reason: 'late',
    });
    const graced = { ...hourly, config: { grace_seconds: 4200 } };
    expect(iso(pushDeadline(graced, { last_push_at: '2026-03-01T12:00:00.000Z' })?.atMs)).toBe(
      '2026-03-01T13:10:00.000Z',
    );
  });

  it('gives a started run what the grace allows beyond the interval, at least an interval, unless the late deadline comes first', () => {
    expect(runAllowanceMs(hourly)).toBe(3_600_000);
    expect(runAllowanceMs({ ...hourly, config: { grace_seconds: 3 * 3600 } })).toBe(7_200_000);
    const last = { last_push_at: '2026-03-01T12:00:00.000Z' };
    expect(pushDeadline(hourly, { ...last, run_started_at: '2026-03-01T12:50:00.000Z' })).toEqual({
      atMs: at('2026-03-01T13:50:00.000Z'),
      reason: 'unfinished',
    });
    expect(pushDeadline(hourly, { ...last, run_started_at: '2026-03-01T13:30:00.000Z' })).toEqual({
      atMs: at('2026-03-01T14:00:00.000Z'),
      reason: 'late',
    });
  });

  it('says how long the job was silent, and expects the next report an interval later', () => {
    const state = { last_push_at: '2026-03-01T12:00:00.000Z' };
    const miss = missedRun(hourly, state, at('2026-03-01T14:00:00.000Z'));
    expect(miss).toEqual({
      reason: 'late',
      message: 'no result received for 7200 s (grace period exceeded)',
      endsRun: false,
      nextAtMs: at('2026-03-01T15:00:00.000Z'),
    });
  });
});

describe('push deadlines on a cron schedule', () => {
  it('expects the next time of the schedule after the last success, plus an hour of grace by default', () => {
    const state = { last_push_at: '2026-03-26T01:31:00.000Z' };
    expect(iso(nextExpectedMs(berlin, state))).toBe('2026-03-27T01:30:00.000Z');
    expect(pushDeadline(berlin, state)).toEqual({ atMs: at('2026-03-27T02:30:00.000Z'), reason: 'late' });
    expect(iso(pushDeadline(daily('Europe/Berlin', 600), state)?.atMs)).toBe('2026-03-27T01:40:00.000Z');
  });

  it('follows Berlin across spring-forward (02:30 does not exist on 29 March: 03:00 CEST) and back', () => {
    // Last success the night before: 28 March 02:31 CET.
    const state = { last_push_at: '2026-03-28T01:31:00.000Z' };
    const first = pushDeadline(berlin, state);
    expect(first).toEqual({ atMs: at('2026-03-29T02:00:00.000Z'), reason: 'late' });
    expect(chain(berlin, first?.atMs ?? 0, 3)).toEqual([
      '2026-03-29T02:00:00.000Z', // 03:00 CEST (the end of the gap) + 1 h
      '2026-03-30T01:30:00.000Z', // 02:30 CEST + 1 h
      '2026-03-31T01:30:00.000Z',
    ]);
    // Autumn: 02:30 happens twice on 25 October; the run is expected once, at the first.
    expect(chain(berlin, at('2026-10-24T01:30:00.000Z'), 3)).toEqual([
      '2026-10-24T01:30:00.000Z', // 02:30 CEST + 1 h
      '2026-10-25T01:30:00.000Z', // 02:30 CEST (the first of the two) + 1 h
      '2026-10-26T02:30:00.000Z', // 02:30 CET + 1 h
    ]);
  });

  it('follows New York across its DST changes (8 March and 1 November)', () => {
    expect(chain(newYork, at('2026-03-07T08:30:00.000Z'), 3)).toEqual([
      '2026-03-07T08:30:00.000Z', // 02:30 EST + 1 h
      '2026-03-08T08:00:00.000Z', // 03:00 EDT (02:30 skipped) + 1 h
      '2026-03-09T07:30:00.000Z', // 02:30 EDT + 1 h
    ]);
    expect(chain(newYork, at('2026-10-31T07:30:00.000Z'), 3)).toEqual([
      '2026-10-31T07:30:00.000Z', // 02:30 EDT + 1 h
      '2026-11-01T08:30:00.000Z', // 02:30 EST + 1 h (01:00-02:00 repeats; 02:30 happens once)
      '2026-11-02T08:30:00.000Z',
    ]);
  });

  it('records one failure per missed expected run, even with a grace longer than the gap between runs', () => {
    const everyFive: HeartbeatCheck = {
      interval_seconds: 300,
      config: { schedule: { cron: '*/5 * * * *', timezone: 'UTC' } },
    };
    expect(chain(everyFive, at('2026-03-01T13:00:00.000Z'), 3)).toEqual([
      '2026-03-01T13:00:00.000Z',
      '2026-03-01T13:05:00.000Z',
      '2026-03-01T13:10:00.000Z',
    ]);
  });

  it('gives a run started on a schedule the grace from the earlier of its start and its expected time (Healthchecks)', () => {
    const last = { last_push_at: '2026-03-27T01:31:00.000Z' };
    // Started a little early (02:25 CET, expected 02:30): the grace counts from the start.
    expect(pushDeadline(berlin, { ...last, run_started_at: '2026-03-28T01:25:00.000Z' })).toEqual({
      atMs: at('2026-03-28T02:25:00.000Z'),
      reason: 'unfinished',
    });
    // Started late (02:45 CET): still late at 02:30 + 1 h.
    expect(pushDeadline(berlin, { ...last, run_started_at: '2026-03-28T01:45:00.000Z' })).toEqual({
      atMs: at('2026-03-28T02:30:00.000Z'),
      reason: 'late',
    });
  });

  it('says what was missed: the expected time in its zone with the grace, or the unfinished run', () => {
    const late = missedRun(
      berlin,
      { last_push_at: '2026-03-28T01:31:00.000Z' },
      at('2026-03-29T02:00:00.000Z'),
    );
    expect(late).toEqual({
      reason: 'late',
      message: 'expected at 2026-03-29 03:00 Europe/Berlin (+1 h grace): no success received',
      endsRun: false,
      nextAtMs: at('2026-03-30T01:30:00.000Z'),
    });

    const started = { last_push_at: '2026-03-27T01:31:00.000Z', run_started_at: '2026-03-28T01:29:55.000Z' };
    const unfinished = missedRun(berlin, started, at('2026-03-28T02:29:55.000Z'));
    // The run ends with its failure, which stands for that night's run: the next deadline is the
    // next night's (29 March, 03:00 CEST + 1 h), not 02:30 CET + 1 h five seconds later.
    expect(unfinished).toEqual({
      reason: 'unfinished',
      message: 'started at 2026-03-28 02:29:55 Europe/Berlin but did not finish within 3600 s',
      endsRun: true,
      nextAtMs: at('2026-03-29T02:00:00.000Z'),
    });

    // A run started after its expected time that never ends is late, once; its start re-arms nothing.
    const lateStart = {
      last_push_at: '2026-03-27T01:31:00.000Z',
      run_started_at: '2026-03-28T01:45:00.000Z',
    };
    expect(missedRun(berlin, lateStart, at('2026-03-28T02:30:00.000Z'))).toMatchObject({
      reason: 'late',
      endsRun: false,
      nextAtMs: at('2026-03-29T02:00:00.000Z'),
    });
  });

  it('does not miss again a deadline whose failure is recorded (an update re-arms past it)', () => {
    const state = { last_push_at: '2026-03-28T01:31:00.000Z' };
    expect(iso(armedDeadlineMs(berlin, state, null))).toBe('2026-03-29T02:00:00.000Z');
    expect(iso(armedDeadlineMs(berlin, state, at('2026-03-29T02:00:00.000Z')))).toBe(
      '2026-03-30T01:30:00.000Z',
    );
    expect(armedDeadlineMs(berlin, {}, null)).toBeNull();
  });

  it('expects a 29 February run every leap year, and derives a daily interval around DST', () => {
    const leap: HeartbeatCheck = {
      interval_seconds: 86_400,
      config: { schedule: { cron: '0 0 29 2 *', timezone: 'UTC' } },
    };
    expect(iso(pushDeadline(leap, { last_push_at: '2024-02-29T00:10:00.000Z' })?.atMs)).toBe(
      '2028-02-29T01:00:00.000Z',
    );
    expect(chain(leap, at('2028-02-29T01:00:00.000Z'), 2)).toEqual([
      '2028-02-29T01:00:00.000Z',
      '2032-02-29T01:00:00.000Z',
    ]);
    // 28 → 29 March in Berlin: 02:30 CET to 03:00 CEST is 23.5 hours.
    expect(
      scheduleIntervalSeconds(
        berlin.config.schedule ?? { cron: '', timezone: '' },
        at('2026-03-27T12:00:00.000Z'),
      ),
    ).toBe(84_600);
  });

  it('is never armed by an expression that never matches (refused on input), and falls back to the interval', () => {
    const never: HeartbeatCheck = {
      interval_seconds: 86_400,
      config: { schedule: { cron: '0 0 30 2 *', timezone: 'UTC' } },
    };
    expect(cronProblem('0 0 30 2 *', 'UTC')).toBe('the expression never matches');
    expect(pushDeadline(never, { last_push_at: '2026-03-01T00:00:00.000Z' })).toBeNull();
    expect(iso(deadlineAfterMissMs(never, at('2026-03-01T00:00:00.000Z')))).toBe('2026-03-02T00:00:00.000Z');
  });

  it('reads 5-field expressions and IANA zones only', () => {
    expect(cronProblem('30 2 * * *', 'Europe/Berlin')).toBeUndefined();
    expect(cronProblem('0 30 2 * * *', 'UTC')).toMatch(/5 fields/);
    expect(isTimeZone('America/New_York')).toBe(true);
    expect(isTimeZone('Berlin')).toBe(false);
  });
});
