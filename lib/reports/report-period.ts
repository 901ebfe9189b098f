import { isTimeZone, pausedCron } from '../domain/schedules.ts';

/**
 * The period a report covers: the last whole week (Monday 00:00 to Monday 00:00) or month (the 1st
 * 00:00 to the next 1st) before now, in the person's time zone (DST followed by croner). Its key
 * names it the same whatever the clock: the date it starts on there, so a period is sent once.
 */

export const REPORT_FREQUENCIES = ['off', 'weekly', 'monthly'] as const;
export type ReportFrequency = (typeof REPORT_FREQUENCIES)[number];

export interface ReportPeriod {
  frequency: Exclude<ReportFrequency, 'off'>;
  timeZone: string;
  /** `weekly:2026-11-16` or `monthly:2026-10`: the local date or month it starts on. */
  key: string;
  startMs: number;
  /** Exclusive. */
  endMs: number;
}

const PATTERNS = { weekly: '0 0 * * 1', monthly: '0 0 1 * *' } as const;

/** The local calendar date of `ms` in `timeZone`, yyyy-mm-dd. */
export function localDate(ms: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date(ms));
}

/** The zone reports are read in: the person's when it is one the runtime knows, else UTC. */
export function reportZone(timeZone: string | undefined): string {
  return timeZone && isTimeZone(timeZone) ? timeZone : 'UTC';
}

/** The last whole period of `frequency` ending at or before `nowMs`, in `timeZone`. */
export function lastWholePeriod(
  frequency: Exclude<ReportFrequency, 'off'>,
  timeZone: string,
  nowMs: number,
): ReportPeriod {
  const zone = reportZone(timeZone);
  // croner's previous runs are strictly before the reference: one ms later counts a boundary at now.
  const [end, start] = pausedCron(PATTERNS[frequency], zone).previousRuns(2, new Date(nowMs + 1));
  if (!end || !start) throw new Error(`no ${frequency} period before ${new Date(nowMs).toISOString()}`);
  const date = localDate(start.getTime(), zone);
  return {
    frequency,
    timeZone: zone,
    key: `${frequency}:${frequency === 'weekly' ? date : date.slice(0, 7)}`,
    startMs: start.getTime(),
    endMs: end.getTime(),
  };
}
