import * as z from 'zod';
import { cronProblem, isTimeZone } from '../domain/schedules.ts';
import { minIntervalSeconds } from './config-view.ts';
import { PULL_MAX_INTERVAL_SECONDS } from './contract/fields.ts';
import type { PushConfig } from './push/push.ts';
import { CHECK_TYPE_DEFINITIONS, CHECK_TYPES, type CheckConfig, type CheckType } from './registry.ts';

/**
 * The `config` of each check type, as one zod discriminated union by `check_type`, derived from
 * the check types' definitions (lib/check-types/registry.ts): strict for request bodies
 * (`configSchemas`, `checkConfigSchema`), lenient for stored items (`storedCheckConfigSchema`), so
 * a check is parsed once at the API boundary, stored typed, and read back typed without
 * re-coercion deeper in.
 */

export { HTTP_METHODS, PULL_MAX_INTERVAL_SECONDS, PUSH_MAX_INTERVAL_SECONDS } from './contract/fields.ts';
export { PUSH_SLUG_PATTERN } from './push/push.ts';
export { CHECK_TYPES, type CheckConfig, type CheckType } from './registry.ts';

const types = CHECK_TYPES.map((type) => [type, CHECK_TYPE_DEFINITIONS[type]] as const);

/** The config each check type accepts on create and update (the Check responses show the same). */
export const configSchemas = Object.fromEntries(types.map(([type, def]) => [type, def.input])) as {
  [T in CheckType]: (typeof CHECK_TYPE_DEFINITIONS)[T]['input'];
};

/** One discriminated union by `check_type` over every type's request or stored config schema. */
function configUnion(part: 'input' | 'stored'): z.ZodType<CheckConfig> {
  const options = types.map(([type, def]) => z.object({ check_type: z.literal(type), config: def[part] }));
  // The registry is what CheckConfig is derived from, so the union's output is CheckConfig.
  return z.discriminatedUnion('check_type', options as [(typeof options)[number]]) as z.ZodType<CheckConfig>;
}

/** A request's check type and config, checked together. */
export const checkConfigSchema = configUnion('input');

/**
 * A stored check's type and config. Reads drop keys no type uses any more and accept a port
 * stored as digits; anything else that does not fit its type fails the read (a ZodError), so a
 * probe never runs on a guessed target.
 */
export const storedCheckConfigSchema = configUnion('stored');

/** A push check's deadline settings (grace, schedule); other types have none. */
export function pushHeartbeatConfig(check: CheckConfig): PushConfig | undefined {
  return check.check_type === 'push' ? check.config : undefined;
}

/** The fewest seconds of grace after a scheduled time (cron's resolution is a minute). */
const SCHEDULE_MIN_GRACE_SECONDS = 60;

/** Why a push check's schedule is not usable (its cron, its timezone, its grace), or undefined. */
function pushScheduleProblem(config: PushConfig): { path: string; message: string } | undefined {
  const { schedule, grace_seconds } = config;
  if (!schedule) return undefined;
  if (!isTimeZone(schedule.timezone)) {
    return { path: 'config.schedule.timezone', message: 'Enter a timezone name, such as Europe/Berlin.' };
  }
  const problem = cronProblem(schedule.cron, schedule.timezone);
  if (problem) {
    return {
      path: 'config.schedule.cron',
      message: `Enter a cron expression of 5 fields (minute hour day-of-month month day-of-week), such as "30 2 * * *": ${problem}.`,
    };
  }
  if (grace_seconds !== undefined && grace_seconds < SCHEDULE_MIN_GRACE_SECONDS) {
    return {
      path: 'config.grace_seconds',
      message: `Enter ${SCHEDULE_MIN_GRACE_SECONDS} or more: the grace is how long after an expected time a success may still arrive. Leave it empty for an hour.`,
    };
  }
  return undefined;
}

/**
 * Why a check's interval and grace do not fit together, or undefined. A push check's grace is the
 * whole silence allowed after a result (SPEC.md), so one shorter than the interval would fail the
 * check before its next report is due; pull checks run at most daily.
 */
export function scheduleProblem(
  check: CheckConfig & { interval_seconds: number },
): { path: string; message: string } | undefined {
  if (check.check_type !== 'push') {
    const min = minIntervalSeconds(check.check_type);
    if (check.interval_seconds < min) {
      return {
        path: 'interval_seconds',
        message: `Enter ${min} or more: ${CHECK_TYPE_DEFINITIONS[check.check_type].label} checks run at most once every ${min} seconds, because their servers limit how often they may be asked.`,
      };
    }
    return check.interval_seconds > PULL_MAX_INTERVAL_SECONDS
      ? {
          path: 'interval_seconds',
          message: `Check at least once a day (${PULL_MAX_INTERVAL_SECONDS} seconds or less); only push checks may wait up to 30 days.`,
        }
      : undefined;
  }
  // With a schedule, interval_seconds is derived from it: the grace counts from each expected time.
  if (check.config.schedule) return pushScheduleProblem(check.config);
  const grace = check.config.grace_seconds;
  if (grace === undefined || grace >= check.interval_seconds) return undefined;
  return {
    path: 'config.grace_seconds',
    message: `Enter ${check.interval_seconds} or more (the interval): the grace is the whole silence allowed after a report, so a shorter one would fail the check before its next report is due. Leave it empty for twice the interval.`,
  };
}
