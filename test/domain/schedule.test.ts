import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  firstSlot,
  nextSlot,
  phaseOffsetMs,
  type ScheduledCheck,
  scheduledRunAt,
  shardOf,
} from '../../lib/domain/schedules/schedule.ts';

const ids = Array.from({ length: 2000 }, (_, i) => `chk_${String(i).padStart(26, '0')}`);

describe('scheduler slots', () => {
  it('spreads checks with the same interval across the interval', () => {
    const perSecond = new Array<number>(10).fill(0);
    for (const id of ids) {
      const offset = phaseOffsetMs(id, 10);
      expect(offset).toBeGreaterThanOrEqual(0);
      expect(offset).toBeLessThan(10_000);
      perSecond[Math.floor(offset / 1000)] = (perSecond[Math.floor(offset / 1000)] ?? 0) + 1;
    }
    // 2,000 checks over 10 one-second buckets: each gets roughly 200, none is empty or doubled.
    for (const count of perSecond) {
      expect(count).toBeGreaterThan(140);
      expect(count).toBeLessThan(260);
    }
  });

  it('places the first slot at or after now, on the check phase', () => {
    const now = 1_700_000_000_123;
    for (const id of ids.slice(0, 100)) {
      const slot = firstSlot(id, 60, now);
      expect(slot).toBeGreaterThanOrEqual(now);
      expect(slot - now).toBeLessThan(60_000);
      expect(slot % 60_000).toBe(phaseOffsetMs(id, 60));
    }
  });

  it('moves one interval forward when on time', () => {
    expect(nextSlot(100_000, 10, 100_050)).toBe(110_000);
  });

  it('skips missed slots after downtime instead of replaying them, keeping the phase', () => {
    const slot = 100_000;
    const now = slot + 3_600_000 + 4_321;
    const next = nextSlot(slot, 10, now);
    expect(next).toBeGreaterThan(now);
    expect(next - now).toBeLessThanOrEqual(10_000);
    expect((next - slot) % 10_000).toBe(0);
  });

  it('never returns a slot at or before now', () => {
    for (let now = 100_000; now < 140_000; now += 999) {
      expect(nextSlot(100_000, 10, now)).toBeGreaterThan(now);
    }
  });

  it('assigns shards evenly and stably', () => {
    const counts = new Array<number>(4).fill(0);
    for (const id of ids) {
      const shard = shardOf(id, 4);
      expect(shardOf(id, 4)).toBe(shard);
      counts[shard] = (counts[shard] ?? 0) + 1;
    }
    for (const count of counts) expect(count).toBeGreaterThan(400);
  });

  it('answers each check its own shard and phase, asked in any order and again (the SHA-1 of its id, kept)', () => {
    const sha1 = (text: string) => createHash('sha1').update(text).digest().readUInt32BE(0);
    for (const round of [ids, [...ids].reverse(), ids])
      for (const id of round) {
        expect(shardOf(id, 7)).toBe(sha1(`shard:${id}`) % 7);
        expect(phaseOffsetMs(id, 60)).toBe(sha1(id) % 60_000);
      }
  });
});

describe('scheduled run time', () => {
  const now = Date.parse('2026-03-01T12:00:00.000Z');
  const check = (over: Partial<ScheduledCheck>): ScheduledCheck => ({
    id: 'chk_01JT0000000000000000000000',
    enabled: true,
    execution_mode: 'pull',
    interval_seconds: 60,
    last_result_at: null,
    next_run_at: null,
    ...over,
  });

  it('schedules nothing for a disabled check', () => {
    expect(scheduledRunAt(check({ enabled: false }), now, false)).toBeNull();
  });

  it('places a pull check on its first slot, or keeps its slot when asked to', () => {
    const first = firstSlot(check({}).id, 60, now);
    expect(scheduledRunAt(check({}), now, false)).toBe(new Date(first).toISOString());
    const kept = '2026-03-01T12:00:30.000Z';
    expect(scheduledRunAt(check({ next_run_at: kept }), now, true)).toBe(kept);
    expect(scheduledRunAt(check({ next_run_at: kept }), now, false)).toBe(new Date(first).toISOString());
  });

  it('schedules a push check only once it has reported, at the grace deadline', () => {
    const push = { execution_mode: 'push' as const, interval_seconds: 60 };
    expect(scheduledRunAt(check(push), now, false)).toBeNull();
    const reported = { ...push, last_result_at: '2026-03-01T11:59:00.000Z' };
    expect(scheduledRunAt(check(reported), now, false)).toBe('2026-03-01T12:01:00.000Z');
    expect(scheduledRunAt(check({ ...reported, heartbeat: { grace_seconds: 30 } }), now, false)).toBe(
      '2026-03-01T11:59:30.000Z',
    );
  });

  it("schedules a push check with a cron schedule at its next expected time plus the grace, in the schedule's zone", () => {
    const berlin = {
      execution_mode: 'push' as const,
      interval_seconds: 86_400,
      heartbeat: { schedule: { cron: '0 3 * * *', timezone: 'Europe/Berlin' } },
      last_push_at: '2026-03-01T02:05:00.000Z',
      last_result_at: '2026-03-01T02:05:00.000Z',
    };
    // 03:00 in Berlin (UTC+1 in March) is 02:00 UTC; the default grace is an hour.
    expect(scheduledRunAt(check(berlin), now, false)).toBe('2026-03-02T03:00:00.000Z');
    // That deadline's miss is recorded (a synthetic failure at it): the next day's deadline follows.
    const missed = { ...berlin, last_result_at: '2026-03-02T03:00:00.000Z' };
    expect(scheduledRunAt(check(missed), now, false)).toBe('2026-03-03T03:00:00.000Z');
  });
});
