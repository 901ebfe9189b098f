import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scheduleOffset } from '../../lib/domain/schedules.ts';
import {
  durationAnomaly,
  durationWords,
  NORMAL_MIN_RUNS,
  normalOf,
  startAnomaly,
} from '../../lib/push/runs/normal.ts';

/**
 * A heartbeat's learned normal (lib/push/runs/normal.ts), over generated run histories: a run inside
 * its band never flags, a run far outside always does, nothing flags before the minimum history,
 * and one outlier in a history does not make ordinary runs flag.
 */

const MIN = 60_000;

describe('the learned normal', () => {
  it('names the evidence: a 41-minute run of a job whose last 30 runs took 3 to 5 minutes', () => {
    const history = Array.from({ length: 30 }, (_, i) => 3 * MIN + (i % 11) * 12_000);
    const normal = normalOf(history);
    expect(normal).toMatchObject({ runs_seen: 30, active: true });
    expect(durationAnomaly(41 * MIN, normal)).toEqual({
      flag: 'anomalous_duration',
      reason: `ran 41 min; its last 30 runs took 3 min–${durationWords(normal.duration?.p95 ?? 0)}, p95 ${durationWords(normal.duration?.p95 ?? 0)}`,
    });
    expect(durationAnomaly(4 * MIN, normal)).toBeUndefined();
    expect(durationAnomaly(20_000, normal)?.reason).toMatch(/^ran only 20 s; its last 30 runs took/);
  });

  it('says durations the way people read them', () => {
    expect([3_200, 45_000, 290_000, 41 * MIN, 125 * MIN, 120 * MIN].map(durationWords)).toEqual([
      '3.2 s',
      '45 s',
      '4 min 50 s',
      '41 min',
      '2 h 5 min',
      '2 h',
    ]);
  });

  it('learns from the newest 100 runs only', () => {
    const old = Array.from({ length: 100 }, () => 60 * MIN);
    const recent = Array.from({ length: 100 }, () => 2 * MIN);
    expect(normalOf([...old, ...recent])).toMatchObject({
      runs_seen: 100,
      duration: { p5: 2 * MIN, p95: 2 * MIN },
    });
  });

  const history = (min: number) =>
    fc.array(fc.integer({ min: 1_000, max: 6 * 3_600_000 }), { minLength: min, maxLength: 150 });

  it('never flags a run inside its band, and always flags one far outside it (property)', () => {
    fc.assert(
      fc.property(history(NORMAL_MIN_RUNS), fc.double({ min: 0, max: 1, noNaN: true }), (durations, t) => {
        const normal = normalOf(durations);
        const band = normal.duration;
        if (!band) throw new Error('no band');
        expect(durationAnomaly(band.p5 + (band.p95 - band.p5) * t, normal)).toBeUndefined();
        const long = Math.max(band.p95 * 3, band.p95 + 5 * MIN) + 1;
        expect(durationAnomaly(long, normal)?.flag).toBe('anomalous_duration');
        if (band.p5 / 3 > 1)
          expect(durationAnomaly(band.p5 / 3 - 1, normal)?.flag).toBe('anomalous_duration');
      }),
    );
  });

  it('never flags a start inside its band, and always flags one far outside it, either way (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -3_600, max: 6 * 3_600 }), { minLength: NORMAL_MIN_RUNS, maxLength: 150 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (offsets, t) => {
          const normal = normalOf(
            offsets.map(() => MIN),
            offsets,
          );
          const band = normal.start_offset;
          if (!band) throw new Error('no band');
          expect(startAnomaly(band.p5 + (band.p95 - band.p5) * t, normal)).toBeUndefined();
          const margin = Math.max(3 * (band.p95 - band.p5), 5 * 60);
          expect(startAnomaly(band.p95 + margin + 1, normal)?.flag).toBe('anomalous_start');
          expect(startAnomaly(band.p5 - margin - 1, normal)?.flag).toBe('anomalous_start');
        },
      ),
    );
  });

  it("measures a start from its schedule's nearest time, before or after it (property)", () => {
    const nightly = { cron: '0 2 * * *', timezone: 'UTC' };
    const day = 86_400_000;
    fc.assert(
      fc.property(
        fc.integer({ min: Date.parse('2026-01-01T00:00:00Z'), max: Date.parse('2027-01-01T00:00:00Z') }),
        (at) => {
          const offset = scheduleOffset(nightly, at);
          if (!offset) throw new Error('no occurrence');
          expect(Math.abs(offset.offsetMs)).toBeLessThanOrEqual(day / 2);
          expect(offset.scheduledMs).toBe(at - offset.offsetMs);
          expect(new Date(offset.scheduledMs).toISOString().slice(11)).toBe('02:00:00.000Z');
        },
      ),
    );
    expect(scheduleOffset(nightly, Date.parse('2026-04-02T01:20:00Z'))?.offsetMs).toBe(-40 * MIN);
    expect(scheduleOffset(nightly, Date.parse('2026-04-02T02:03:00Z'))?.offsetMs).toBe(3 * MIN);
  });

  it('flags nothing before the minimum history (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1_000, max: 3_600_000 }), { maxLength: NORMAL_MIN_RUNS - 1 }),
        fc.integer({ min: 0, max: 100 * 3_600_000 }),
        fc.integer({ min: -86_400, max: 86_400 }),
        (durations, run, offset) => {
          const normal = normalOf(
            durations,
            durations.map(() => 30),
          );
          expect(normal.active).toBe(false);
          expect(durationAnomaly(run, normal)).toBeUndefined();
          expect(startAnomaly(offset, normal)).toBeUndefined();
        },
      ),
    );
  });

  // Steady: every run within a factor of 1.25 of a typical one (the rule's 3x leaves room for that wobble).
  it('keeps a steady job steady: one outlier among its runs makes none of the others flag (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 5_000, max: 3_600_000 }),
        fc.array(fc.double({ min: 0.8, max: 1.25, noNaN: true }), { minLength: 40, maxLength: 100 }),
        fc.integer({ min: 0, max: 99 }),
        fc.integer({ min: 1, max: 48 * 3_600_000 }),
        (typical, factors, where, outlier) => {
          const steady = factors.map((f) => Math.round(typical * f));
          const durations = [...steady];
          durations.splice(where % durations.length, 0, outlier);
          const normal = normalOf(durations);
          for (const d of steady) expect(durationAnomaly(d, normal), `${d} ms`).toBeUndefined();
        },
      ),
    );
  });

  it('flags a start far from when the schedule’s runs usually start, in either direction', () => {
    const normal = normalOf(
      Array.from({ length: 30 }, () => 40 * MIN),
      Array.from({ length: 30 }, (_, i) => 20 + (i % 5) * 10),
    );
    expect(startAnomaly(55, normal)).toBeUndefined();
    expect(startAnomaly(40 * 60, normal)).toMatchObject({
      flag: 'anomalous_start',
      reason: expect.stringMatching(/^started 40 min after the scheduled time; its runs usually start 2/),
    });
    expect(startAnomaly(-30 * 60, normal)?.reason).toMatch(/^started 30 min before the scheduled time/);
  });
});
