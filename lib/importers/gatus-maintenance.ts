import { asRecord, goDurationSeconds } from './import-common.ts';

/**
 * Gatus's maintenance (config/maintenance: `start` "hh:mm", `duration`, `timezone`, `every` day
 * names, `enabled`), globally or per endpoint (`maintenance-windows`), as a recurring Vigil
 * window: a cron at the start time on those days (every day when none) for the duration.
 */

const DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const KEYS = new Set(['enabled', 'start', 'duration', 'timezone', 'every']);
const MAX_DURATION_SECONDS = 7 * 24 * 3600;

/** The window's cron, duration and timezone, or undefined (with lines in `unmapped`) when it cannot be one. */
export function gatusWindow(
  raw: unknown,
  path: string,
  unmapped: string[],
): { cron: string; duration_seconds: number; timezone?: string } | undefined {
  const maintenance = asRecord(raw);
  if (!maintenance) {
    unmapped.push(`${path}: not a mapping, left out`);
    return undefined;
  }
  for (const key of Object.keys(maintenance)) {
    if (!KEYS.has(key)) unmapped.push(`${path}.${key}: unknown maintenance key, left out`);
  }
  if (maintenance.enabled === false) {
    unmapped.push(`${path}: disabled in Gatus, left out`);
    return undefined;
  }
  const start = /^([01]?\d|2[0-3]):([0-5]\d)$/.exec(String(maintenance.start ?? ''));
  if (!start) {
    unmapped.push(`${path}.start: "${String(maintenance.start)}" is not an hh:mm time, window left out`);
    return undefined;
  }
  const seconds = goDurationSeconds(maintenance.duration);
  if (seconds === undefined || seconds < 60 || seconds > MAX_DURATION_SECONDS) {
    unmapped.push(`${path}.duration: Vigil windows last 1 minute to 7 days, window left out`);
    return undefined;
  }
  const every = Array.isArray(maintenance.every) ? maintenance.every.map((d) => String(d).toLowerCase()) : [];
  const days = every.map((day) => DAYS.indexOf(day));
  if (days.includes(-1)) {
    unmapped.push(`${path}.every: not day names (${every.join(', ')}), window left out`);
    return undefined;
  }
  const dow = days.length === 0 ? '*' : [...new Set(days)].sort((a, b) => a - b).join(',');
  const timezone = typeof maintenance.timezone === 'string' ? maintenance.timezone : undefined;
  return {
    cron: `${Number(start[2])} ${Number(start[1])} * * ${dow}`,
    duration_seconds: Math.round(seconds),
    ...(timezone ? { timezone } : {}),
  };
}
