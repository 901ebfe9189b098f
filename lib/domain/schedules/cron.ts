import { Cron } from 'croner';

/**
 * Cron expressions read in an IANA timezone (pure; croner): the one implementation behind
 * maintenance windows and push check schedules. croner follows the zone's clock across DST: a
 * time a spring-forward skips runs at the end of the gap, a time an autumn fall-back repeats runs once.
 */

/** True for an IANA timezone name the runtime knows. */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** A cron, paused (it only computes occurrences, it never runs anything). */
export function pausedCron(pattern: string, timezone: string): Cron {
  return new Cron(pattern, { timezone, paused: true });
}

/** Why `pattern` is not a usable 5-field cron expression, or undefined when it is. */
export function cronProblem(pattern: string, timezone: string): string | undefined {
  if (pattern.trim().split(/\s+/).length !== 5)
    return 'a cron expression has 5 fields: minute hour day-of-month month day-of-week';
  try {
    if (!pausedCron(pattern, timezone).nextRun()) return 'the expression never matches';
  } catch (error) {
    return error instanceof Error ? error.message : 'not a cron expression';
  }
  return undefined;
}
