import { checkDailyRollups, type DailyCheck, entityDailyChecks } from '../checks/results.ts';
import { lastDays, mergeRollups, type Rollup, uptimeRatio } from '../domain/rollups.ts';
import type { Clock } from '../platform/clock.ts';
import type { Table } from '../store/table.ts';

/**
 * Daily uptime of entities (the 90-day bars of the console and of public status pages): per UTC
 * day, the successes over the results of all the entity's checks (results-based, like the uptime
 * ratio of GET .../uptime), read from daily rollups (lib/checks/results/day-rollups.ts), never from results.
 */

/** The checks' rollups of each day in `dates` up to `nowMs`, summed across the checks (absent: no result that day). */
export async function summedDailyRollups(
  table: Table,
  checks: readonly DailyCheck[],
  dates: readonly string[],
  nowMs: number,
): Promise<Map<string, Rollup>> {
  const perCheck = await Promise.all(checks.map((check) => checkDailyRollups(table, check, dates, nowMs)));
  const out = new Map<string, Rollup>();
  for (const date of dates) {
    const rollups = perCheck.flatMap((days) => {
      const r = days.get(date);
      return r ? [r] : [];
    });
    if (rollups.length > 0) out.set(date, mergeRollups(rollups));
  }
  return out;
}

/** Each of `dates` with its uptime from the summed rollups, null for a day without results. */
export function dailyBars(
  dates: readonly string[],
  daily: ReadonlyMap<string, Rollup>,
): { date: string; uptime_ratio: number | null }[] {
  return dates.map((date) => {
    const r = daily.get(date);
    return { date, uptime_ratio: r ? uptimeRatio(r.total, r.failures) : null };
  });
}

/**
 * Per entity, its uptime of each of the last `days` UTC days (today last; oldest first):
 * successes / results across its checks, 5 decimals, null for a day without results (before it
 * had checks, or while they were disabled). Entities without checks answer all nulls; ids of
 * entities that do not exist (or of another tenant) too: callers pass ids they have read.
 */
export async function entityDailyUptime(
  deps: { table: Table; clock: Clock },
  tenantId: string,
  entityIds: string[],
  days: number,
): Promise<Map<string, { date: string; uptime_ratio: number | null }[]>> {
  const nowMs = deps.clock.now();
  const dates = lastDays(nowMs, days);
  const answers = await Promise.all(
    entityIds.map(async (entityId) => {
      const checks = await entityDailyChecks(deps.table, tenantId, entityId);
      const daily = await summedDailyRollups(deps.table, checks, dates, nowMs);
      return [entityId, dailyBars(dates, daily)] as const;
    }),
  );
  return new Map(answers);
}
