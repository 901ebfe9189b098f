import { describe, expect, it } from 'vitest';
import { isoTime } from '../../lib/platform/clock.ts';

describe('isoTime', () => {
  it("gives Date#toISOString's text for times across days, years and the edges of the fast path", () => {
    const samples = [
      0,
      1,
      999,
      1000,
      59_999,
      3_599_999,
      86_399_999,
      86_400_000,
      Date.parse('2026-11-21T23:59:59.999Z'),
      Date.parse('2026-11-22T00:00:00.000Z'),
      Date.parse('2028-02-29T12:34:56.007Z'),
      253_402_300_799_999, // 9999-12-31T23:59:59.999Z
      253_402_300_800_000, // +010000-01-01
      -1, // 1969
      -62_198_755_200_000, // year 0
      1.5, // a fraction: truncated as Date does
    ];
    // A walk through a few days in uneven steps, going back and forth across midnights.
    for (let ms = Date.parse('2026-11-20T22:00:00.000Z'), i = 0; i < 2000; i += 1) {
      samples.push(ms);
      ms += i % 2 === 0 ? 97_003_123 : -61_000_777;
    }
    for (const ms of samples) expect(isoTime(ms), String(ms)).toBe(new Date(ms).toISOString());
  });

  it('throws as toISOString does for a time that is not a date', () => {
    expect(() => isoTime(Number.NaN)).toThrow(RangeError);
    expect(() => isoTime(8.64e15 + 1)).toThrow(RangeError);
  });
});
