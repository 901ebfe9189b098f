import { describe, expect, it } from 'vitest';
import { cronProblem, isTimeZone } from '../../lib/domain/schedules/cron.ts';
import type { WindowRecord } from '../../lib/maintenance/maintenance-items.ts';
import { activeSpan } from '../../lib/maintenance/schedule.ts';

/** When a window is on: one-off spans, and recurring ones read in their timezone across DST changes. */

const base: WindowRecord = {
  id: 'mnt_01J00000000000000000000000',
  tenant_id: 'tnt_x',
  name: 'Nightly',
  entity_ids: ['ent_x'],
  blueprint_slugs: [],
  include_dependents: false,
  starts_at: null,
  ends_at: null,
  cron: null,
  duration_seconds: null,
  timezone: null,
  announce: false,
  announce_from: null,
  announce_lead_seconds: null,
  announced_at: null,
  public_note: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  version: 1,
};

/** A daily 02:30 Berlin window of 30 minutes. */
const nightly: WindowRecord = {
  ...base,
  cron: '30 2 * * *',
  duration_seconds: 1800,
  timezone: 'Europe/Berlin',
};
const at = (iso: string) => Date.parse(iso);
const on = (window: WindowRecord, iso: string) => activeSpan(window, at(iso)) !== undefined;

describe('a one-off window', () => {
  const window = { ...base, starts_at: '2026-05-01T10:00:00.000Z', ends_at: '2026-05-01T11:00:00.000Z' };

  it('is on from starts_at (inclusive) to ends_at (exclusive)', () => {
    expect(on(window, '2026-05-01T09:59:59.999Z')).toBe(false);
    expect(activeSpan(window, at('2026-05-01T10:00:00.000Z'))).toEqual({
      startMs: at('2026-05-01T10:00:00.000Z'),
      endMs: at('2026-05-01T11:00:00.000Z'),
    });
    expect(on(window, '2026-05-01T10:59:59.999Z')).toBe(true);
    expect(on(window, '2026-05-01T11:00:00.000Z')).toBe(false);
  });
});

describe('a recurring window', () => {
  it('is on from each occurrence for its duration, in its timezone (CET: 01:30 UTC)', () => {
    expect(on(nightly, '2026-01-15T01:29:59.000Z')).toBe(false);
    expect(activeSpan(nightly, at('2026-01-15T01:30:00.000Z'))).toEqual({
      startMs: at('2026-01-15T01:30:00.000Z'),
      endMs: at('2026-01-15T02:00:00.000Z'),
    });
    expect(on(nightly, '2026-01-15T01:59:59.000Z')).toBe(true);
    expect(on(nightly, '2026-01-15T02:00:00.000Z')).toBe(false);
  });

  it('follows the local clock after spring forward (CEST: 00:30 UTC)', () => {
    // 2026-03-28 is still CET, 2026-03-30 is CEST: 02:30 local moves one hour earlier in UTC.
    expect(on(nightly, '2026-03-28T01:45:00.000Z')).toBe(true);
    expect(on(nightly, '2026-03-30T00:45:00.000Z')).toBe(true);
    expect(on(nightly, '2026-03-30T01:45:00.000Z')).toBe(false);
  });

  it('runs once on the night 02:30 does not exist (2026-03-29: at the end of the gap, 03:00 CEST)', () => {
    expect(activeSpan(nightly, at('2026-03-29T01:10:00.000Z'))).toEqual({
      startMs: at('2026-03-29T01:00:00.000Z'),
      endMs: at('2026-03-29T01:30:00.000Z'),
    });
    expect(on(nightly, '2026-03-29T00:45:00.000Z')).toBe(false);
    expect(on(nightly, '2026-03-29T01:45:00.000Z')).toBe(false);
  });

  it('runs once on the night 02:30 happens twice (2026-10-25), then follows CET', () => {
    expect(on(nightly, '2026-10-25T00:45:00.000Z')).toBe(true);
    // The second 02:30 (CET, 01:30 UTC) is not a second run.
    expect(on(nightly, '2026-10-25T01:45:00.000Z')).toBe(false);
    expect(on(nightly, '2026-10-26T00:45:00.000Z')).toBe(false);
    expect(on(nightly, '2026-10-26T01:45:00.000Z')).toBe(true);
  });

  it('defaults to UTC', () => {
    const utc = { ...nightly, timezone: null };
    expect(on(utc, '2026-07-01T02:45:00.000Z')).toBe(true);
    expect(on(utc, '2026-07-01T00:45:00.000Z')).toBe(false);
  });
});

describe('validation helpers', () => {
  it('accepts 5-field expressions only', () => {
    expect(cronProblem('30 2 * * *', 'UTC')).toBeUndefined();
    expect(cronProblem('0 30 2 * * *', 'UTC')).toMatch(/5 fields/);
    expect(cronProblem('@daily', 'UTC')).toMatch(/5 fields/);
    expect(cronProblem('61 * * * *', 'UTC')).toMatch(/minute/);
  });

  it('knows IANA timezones', () => {
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
  });
});
