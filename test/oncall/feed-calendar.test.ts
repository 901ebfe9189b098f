import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  FEED_DAYS_AHEAD,
  FEED_DAYS_BACK,
  type FeedEvent,
  feedWindow,
  MAX_FEED_EVENTS,
  renderFeed,
} from '../../lib/oncall/feeds/feed-calendar.ts';

/**
 * A feed's body as written (pure): RFC 5545's line rules, names that cannot add a line of their own,
 * the event bound, and a window of whole UTC days.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = Date.parse('2026-03-28T12:00:00.000Z');

const event = (i: number, over: Partial<FeedEvent> = {}): FeedEvent => ({
  scheduleId: 'sch_01JAAAAAAAAAAAAAAAAAAAAAAA',
  userId: 'usr_01JAAAAAAAAAAAAAAAAAAAAAAA',
  start: T0 + i * HOUR,
  end: T0 + (i + 1) * HOUR,
  summary: 'On call: Ann',
  description: 'Primary · Layer: Everyone',
  ...over,
});

/** The body's content lines, unfolded. */
const linesOf = (body: string) =>
  body
    .replace(/\r\n[ \t]/g, '')
    .split('\r\n')
    .slice(0, -1);

describe('renderFeed', () => {
  it('ends every line with CRLF and keeps a name’s line breaks and separators inside its one line', () => {
    const body = renderFeed({
      name: 'Ops\r\nBEGIN:VEVENT; a, b\\c: on call',
      stamp: T0,
      events: [event(0, { summary: 'On call: Ann\nEND:VCALENDAR', description: 'x;y,z' })],
    });

    expect(body.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(body.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    const lines = linesOf(body);
    expect(lines).toContain('X-WR-CALNAME:Ops BEGIN:VEVENT\\; a\\, b\\\\c: on call');
    expect(lines.filter((l) => l === 'BEGIN:VEVENT')).toHaveLength(1);
    expect(lines.filter((l) => l === 'END:VCALENDAR')).toHaveLength(1);
    expect(lines).toContain('SUMMARY:On call: Ann\\nEND:VCALENDAR');
    expect(lines).toContain('DTSTART:20260328T120000Z');
    expect(lines).toContain('DTEND:20260328T130000Z');
  });

  it('gives the same body for the same shifts, with a UID per shift that names it', () => {
    const events = [event(2), event(0), event(1, { userId: 'usr_01JBBBBBBBBBBBBBBBBBBBBBBB' })];
    const body = renderFeed({ name: 'Primary: on call', stamp: T0, events });

    expect(renderFeed({ name: 'Primary: on call', stamp: T0, events: [...events].reverse() })).toBe(body);
    expect(linesOf(body).filter((l) => l.startsWith('UID:'))).toEqual([
      `UID:oncall-sch_01JAAAAAAAAAAAAAAAAAAAAAAA-usr_01JAAAAAAAAAAAAAAAAAAAAAAA-${T0}@vigil`,
      `UID:oncall-sch_01JAAAAAAAAAAAAAAAAAAAAAAA-usr_01JBBBBBBBBBBBBBBBBBBBBBBB-${T0 + HOUR}@vigil`,
      `UID:oncall-sch_01JAAAAAAAAAAAAAAAAAAAAAAA-usr_01JAAAAAAAAAAAAAAAAAAAAAAA-${T0 + 2 * HOUR}@vigil`,
    ]);
  });

  it(`keeps the earliest ${MAX_FEED_EVENTS} events of a longer list`, () => {
    const events = Array.from({ length: MAX_FEED_EVENTS + 5 }, (_, i) => event(MAX_FEED_EVENTS + 4 - i));
    const lines = linesOf(renderFeed({ name: 'Many', stamp: T0, events }));

    const starts = lines.filter((l) => l.startsWith('DTSTART:'));
    expect(starts).toHaveLength(MAX_FEED_EVENTS);
    expect(starts[0]).toBe('DTSTART:20260328T120000Z');
  });
});

describe('feedWindow', () => {
  it('covers whole UTC days, from seven days back to past the sixtieth day ahead, the same all day', () => {
    const seed = Date.now() % 1_000_000;
    console.info(`feedWindow property seed: ${seed}`);
    fc.assert(
      fc.property(fc.integer({ min: Date.parse('2000-01-01'), max: Date.parse('2100-01-01') }), (now) => {
        const { from, to } = feedWindow(now);
        expect(from % DAY).toBe(0);
        expect(to % DAY).toBe(0);
        expect(from).toBeLessThanOrEqual(now - FEED_DAYS_BACK * DAY);
        expect(from).toBeGreaterThan(now - (FEED_DAYS_BACK + 1) * DAY);
        expect(to).toBeGreaterThan(now + FEED_DAYS_AHEAD * DAY);
        expect(to - from).toBe((FEED_DAYS_BACK + FEED_DAYS_AHEAD + 1) * DAY);
        const endOfDay = Math.floor(now / DAY) * DAY + DAY - 1;
        expect(feedWindow(endOfDay)).toEqual({ from, to });
      }),
      { seed },
    );
  });
});
