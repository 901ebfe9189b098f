import { createHash } from 'node:crypto';
import ical from 'ical-generator';

/**
 * A calendar feed's body (RFC 5545, written by ical-generator): one VEVENT per final shift, times
 * in UTC, each with a UID that stays the same from one fetch to the next (the schedule, the person
 * and the shift's start), so a calendar updates an event instead of adding it again.
 */

/** How far back and ahead a feed reaches, in whole UTC days around today. */
export const FEED_DAYS_BACK = 7;
export const FEED_DAYS_AHEAD = 60;
/** Events one feed holds at most (a one-hour rotation in many schedules): the earliest are kept. */
export const MAX_FEED_EVENTS = 2000;
/** How often a calendar is asked to fetch the feed again (REFRESH-INTERVAL, X-PUBLISHED-TTL). */
const REFRESH_SECONDS = 3600;

const DAY_MS = 24 * 3_600_000;

/**
 * The window a feed covers at `nowMs`: from 00:00 UTC seven days back to 00:00 UTC after the
 * sixtieth day ahead. Whole days, so the first and last events (cut at the window's edges) keep
 * their UIDs and the body its ETag for the rest of the day.
 */
export function feedWindow(nowMs: number): { from: number; to: number } {
  const today = Math.floor(nowMs / DAY_MS) * DAY_MS;
  return { from: today - FEED_DAYS_BACK * DAY_MS, to: today + (FEED_DAYS_AHEAD + 1) * DAY_MS };
}

export interface FeedEvent {
  scheduleId: string;
  userId: string;
  start: number;
  end: number;
  summary: string;
  description: string;
}

/**
 * RFC 5545 TEXT for the calendar's name, which ical-generator writes as given: control characters
 * become spaces (a line break would start a property of its own), `\ ; ,` are escaped.
 */
function calendarText(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes
  return value.replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/[\\;,]/g, (c) => `\\${c}`);
}

/** The UID of a shift: the same shift has it in every fetch, and in the schedule's and the person's feed. */
function shiftUid(event: Pick<FeedEvent, 'scheduleId' | 'userId' | 'start'>): string {
  return `oncall-${event.scheduleId}-${event.userId}-${event.start}@vigil`;
}

/**
 * The feed's iCalendar text. `stamp` (DTSTAMP) is when its schedules last changed, not now, so the
 * same shifts give the same bytes (and the same ETag).
 */
export function renderFeed(input: { name: string; stamp: number; events: FeedEvent[] }): string {
  const calendar = ical({
    name: calendarText(input.name),
    prodId: { company: 'Vigil', product: 'On-call', language: 'EN' },
    ttl: REFRESH_SECONDS,
  });
  const events = [...input.events]
    .sort((a, b) => a.start - b.start || a.scheduleId.localeCompare(b.scheduleId))
    .slice(0, MAX_FEED_EVENTS);
  for (const event of events) {
    calendar.createEvent({
      id: shiftUid(event),
      start: new Date(event.start),
      end: new Date(event.end),
      stamp: new Date(input.stamp),
      summary: event.summary,
      description: event.description,
    });
  }
  // RFC 5545 3.1: every content line ends with CRLF, the last one too (ical-generator leaves it off).
  const text = calendar.toString();
  return text.endsWith('\r\n') ? text : `${text}\r\n`;
}

/** A strong ETag of a body: its SHA-256, base64url. */
export function bodyEtag(body: string): string {
  return `"${createHash('sha256').update(body, 'utf8').digest('base64url')}"`;
}
