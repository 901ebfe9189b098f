import { type CheckConfig, PUSH_MAX_INTERVAL_SECONDS } from '../../check-types/check-config.ts';
import { scheduleIntervalSeconds } from '../../domain/schedules.ts';
import { probesFromLocations } from '../../domain/states.ts';
import { ValidationError } from '../../platform/errors.ts';

/**
 * A push check with a cron schedule: its interval_seconds is derived from the schedule (the gap
 * between its next two expected times, at most 30 days) and stored, so a request naming both is refused rather
 * than one of them silently ignored (create, update and MCP create_check alike).
 */

type Scheduled = CheckConfig & { interval_seconds: number };

/**
 * Refuses `interval_seconds` sent with (or onto) a push check that has a schedule, and
 * early_seconds on one without a schedule.
 */
export function scheduleOwnsInterval<T extends Scheduled>(sentInterval: number | undefined, def: T): T {
  if (sentInterval !== undefined && def.check_type === 'push' && def.config.schedule) {
    throw ValidationError.field(
      'interval_seconds',
      'Leave interval_seconds out: a check with a schedule expects a run at each of its times (config.schedule), and its interval is derived from it. To report on an interval instead, send the config without a schedule.',
    );
  }
  if (def.check_type === 'push' && def.config.early_seconds !== undefined && !def.config.schedule) {
    throw ValidationError.field(
      'config.early_seconds',
      'early_seconds needs a schedule: only a run expected at a time can start early. Send config.schedule with it, or leave early_seconds out.',
    );
  }
  return def;
}

/** The definition with a schedule's derived interval_seconds (as of `nowMs`); others unchanged. */
export function withScheduleInterval<T extends Scheduled>(def: T, nowMs: number): T {
  if (def.check_type !== 'push' || !def.config.schedule) return def;
  // A rare schedule (29 February) still shows and stores an interval a push check may have.
  const derived = scheduleIntervalSeconds(def.config.schedule, nowMs);
  return { ...def, interval_seconds: Math.min(derived, PUSH_MAX_INTERVAL_SECONDS) };
}

type Armed = Scheduled & {
  enabled: boolean;
  execution_mode: 'pull' | 'push';
  locations?: readonly string[] | undefined;
};

/**
 * True when an update changes when a check is scheduled: enabled, the execution mode, whether it
 * probes from other locations (then it leaves its cell for the due index, or joins one), or for a
 * push check what its deadline depends on (interval, grace, schedule, a started run's
 * max_duration_seconds and keepalive_seconds: its deadline is re-armed).
 */
export function changesScheduling(before: Armed, after: Armed): boolean {
  if (before.enabled !== after.enabled || before.execution_mode !== after.execution_mode) return true;
  if (probesFromLocations(before) !== probesFromLocations(after)) return true;
  if (after.check_type !== 'push' || before.check_type !== 'push') return false;
  const of = (c: Scheduled & { check_type: 'push' }) =>
    JSON.stringify([
      c.interval_seconds,
      c.config.grace_seconds ?? null,
      c.config.schedule ?? null,
      c.config.max_duration_seconds ?? null,
      c.config.keepalive_seconds ?? null,
    ]);
  return of(before) !== of(after);
}
