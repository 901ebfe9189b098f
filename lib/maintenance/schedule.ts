import { pausedCron } from '../domain/schedules.ts';
import type { WindowRecord } from './maintenance-items.ts';

/**
 * When a maintenance window is on. A one-off window runs from `starts_at` to `ends_at`; a
 * recurring one from each occurrence of its cron expression, read in its IANA timezone (lib/domain/schedules/cron.ts)
 * (so a daily 02:30 window follows the local clock across DST changes: croner runs a time that a
 * spring-forward skips at the end of the gap, and a time an autumn fall-back repeats once), for
 * `duration_seconds`: it is active when its most recent occurrence <= now < occurrence + duration.
 */

/** The span of a window's current run. */
export interface WindowSpan {
  startMs: number;
  endMs: number;
}

/** The most recent occurrence of a recurring window at or before `nowMs`, or undefined. */
function latestOccurrence(pattern: string, timezone: string, nowMs: number): number | undefined {
  // croner's reference is exclusive and whole-second: look from just after now and keep what is <= now.
  const runs = pausedCron(pattern, timezone).previousRuns(2, new Date(nowMs + 1000));
  return runs.map((run) => run.getTime()).find((ms) => ms <= nowMs);
}

/** The window's run that covers `nowMs`, or undefined when the window is not active then. */
export function activeSpan(window: WindowRecord, nowMs: number): WindowSpan | undefined {
  if (window.cron !== null && window.duration_seconds !== null) {
    let startMs: number | undefined;
    try {
      startMs = latestOccurrence(window.cron, window.timezone ?? 'UTC', nowMs);
    } catch {
      // A stored expression the library no longer reads covers nothing rather than failing alerts.
      return undefined;
    }
    if (startMs === undefined) return undefined;
    const endMs = startMs + window.duration_seconds * 1000;
    return nowMs < endMs ? { startMs, endMs } : undefined;
  }
  if (window.starts_at === null || window.ends_at === null) return undefined;
  const startMs = Date.parse(window.starts_at);
  const endMs = Date.parse(window.ends_at);
  return startMs <= nowMs && nowMs < endMs ? { startMs, endMs } : undefined;
}
