import { Cron } from 'croner';
import type { Schemas } from '../api/client';
import { durationInWords } from '../incidents/words';

/**
 * Maintenance windows in words: a window's schedule, what it covers and when it next starts, and
 * the conversions between the form's local date-times and the API's ISO UTC times.
 */

export type MaintenanceWindow = Schemas['MaintenanceWindow'];

/** The badge of a window that is on now, and of an entity a window covers (never colour alone). */
export const ON_NOW = { words: 'on now', className: 'state-degraded' } as const;
export const IN_MAINTENANCE = { words: 'in maintenance', className: 'state-degraded' } as const;

/** A recurring window's schedule: "0 2 * * 0 (Europe/Berlin), 2 h each time". */
export function recurrenceInWords(w: MaintenanceWindow): string {
  const length = w.duration_seconds === null ? '' : `, ${durationInWords(w.duration_seconds)} each time`;
  return `${w.cron ?? ''} (${w.timezone ?? 'UTC'})${length}`;
}

/**
 * When the window next starts, in ms, or undefined when it never will (a one-off that has begun).
 * The API does not return it: a recurring window's next run is read here with croner, the library
 * the API evaluates windows with, in the window's timezone (so DST is followed as the API does).
 */
export function nextStartMs(w: MaintenanceWindow, nowMs: number): number | undefined {
  if (w.cron !== null) {
    try {
      return new Cron(w.cron, { timezone: w.timezone ?? 'UTC', paused: true })
        .nextRun(new Date(nowMs))
        ?.getTime();
    } catch {
      return undefined;
    }
  }
  if (w.starts_at === null) return undefined;
  const starts = Date.parse(w.starts_at);
  return starts > nowMs ? starts : undefined;
}

/** A one-off window that is over (it will never be on again). */
export function isOver(w: MaintenanceWindow, nowMs: number): boolean {
  return w.cron === null && w.ends_at !== null && Date.parse(w.ends_at) <= nowMs;
}

/** What a window covers besides its entities (which pages link by name), in phrases. */
export function coverBeyondEntities(w: MaintenanceWindow): string[] {
  return [
    ...w.blueprint_slugs.map((slug) => `every entity of blueprint ${slug}`),
    ...(w.include_dependents ? ['and what depends on them'] : []),
  ];
}

/** A `datetime-local` input's value for an instant, in the reader's timezone, to the minute. */
export function toLocalInput(ms: number): string {
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}`;
}

/** The API's ISO UTC time for a `datetime-local` value (read in the reader's timezone), or '' when empty or unreadable. */
export function fromLocalInput(value: string): string {
  const ms = new Date(value).getTime();
  return value && Number.isFinite(ms) ? new Date(ms).toISOString() : '';
}

/** The reader's IANA timezone, the form's default for a recurring window. */
export function readerTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** IANA names the browser knows, offered as the timezone field's suggestions (UTC first). */
export function timeZoneSuggestions(): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return ['UTC', ...known.filter((z) => z !== 'UTC')];
}
