import { Temporal } from 'temporal-polyfill';

/**
 * Times in a schedule's zone (the API's rule: handoffs are wall-clock times there). Temporal
 * places local dates in the zone, so a day across a DST change is 23 or 25 hours long, as it is.
 */

/** The days the timeline shows. */
export const WINDOW_DAYS = 14;

/** Midnight of the day `ms` falls on in `zone`, plus `days`, as an instant (ISO). */
export function dayStart(zone: string, ms: number, days = 0): string {
  return Temporal.Instant.fromEpochMilliseconds(ms)
    .toZonedDateTimeISO(zone)
    .startOfDay()
    .add({ days })
    .toInstant()
    .toString();
}

/** The local midnights of a window of `count` days from `fromIso` (the window's day boundaries). */
export function daysOf(
  zone: string,
  fromIso: string,
  count = WINDOW_DAYS,
): { start: number; label: string }[] {
  const first = Temporal.Instant.from(fromIso).toZonedDateTimeISO(zone).startOfDay();
  return Array.from({ length: count }, (_, i) => {
    const day = first.add({ days: i });
    return {
      start: day.epochMilliseconds,
      label: day.toLocaleString('en-GB', { weekday: 'short', day: 'numeric', month: 'short' }),
    };
  });
}

/** An instant as people read it in `zone`: "Mon 5 Jan, 09:00". */
export function zoneWords(iso: string, zone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  })
    .format(new Date(iso))
    .replace(/,? (\d\d:\d\d)$/, ', $1');
}

/** A `datetime-local` value (local to `zone`) as an instant (ISO, …Z); undefined when incomplete. */
export function instantOfLocal(local: string, zone: string): string | undefined {
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(local)) return undefined;
  return Temporal.PlainDateTime.from(local).toZonedDateTime(zone).toInstant().toString();
}

/** An instant (ISO) as a `datetime-local` value in `zone` ("2026-03-29T09:00"), to edit it there. */
export function localOfInstant(iso: string, zone: string): string {
  return Temporal.Instant.from(iso)
    .toZonedDateTimeISO(zone)
    .toPlainDateTime()
    .toString({ smallestUnit: 'minute' });
}
