import * as z from 'zod';
import { getUser, userReportOp } from '../auth/records.ts';
import type { Clock } from '../platform/clock.ts';
import { NotFoundError } from '../platform/errors.ts';
import { ConditionFailedError, type Table } from '../store/table.ts';
import { REPORT_FREQUENCIES, reportZone } from './report-period.ts';

/**
 * A person's report preference, kept on their user item (lib/auth owns it): off (the default, and
 * every user stored before reports), weekly or monthly, and the IANA time zone their week or
 * month starts in (UTC unless they chose one: neither people nor tenants have a zone otherwise).
 */

/** The zones a person may choose: the runtime's canonical IANA names, and UTC. */
const TIME_ZONES = ['UTC', ...Intl.supportedValuesOf('timeZone').filter((z) => z !== 'UTC')] as [
  string,
  ...string[],
];

export const reportPreferenceSchema = z.strictObject({
  report: z.enum(REPORT_FREQUENCIES).meta({ description: 'off (the default), weekly or monthly' }),
  time_zone: z
    .enum(TIME_ZONES, { error: 'Enter a time zone name, such as Europe/Berlin.' })
    .meta({ description: 'The IANA time zone the week (Monday 00:00) or month (the 1st, 00:00) starts in' }),
});
export type ReportPreference = z.infer<typeof reportPreferenceSchema>;

export function createReportPreferences(deps: { table: Table; clock: Clock }) {
  return {
    /** The caller's preference; 404 for a key without a user. */
    async get(tenantId: string, userId: string): Promise<ReportPreference> {
      const user = await getUser(deps.table, tenantId, userId);
      if (!user) throw new NotFoundError('user');
      return { report: user.report ?? 'off', time_zone: reportZone(user.report_time_zone) };
    },
    /** Sets it; false when the user is gone (removed meanwhile). */
    async set(tenantId: string, userId: string, preference: ReportPreference): Promise<boolean> {
      const at = new Date(deps.clock.now()).toISOString();
      try {
        await deps.table.transact([
          userReportOp(tenantId, userId, {
            report: preference.report,
            report_time_zone: preference.time_zone,
            report_since: at,
            updated_at: at,
          }),
        ]);
        return true;
      } catch (error) {
        if (error instanceof ConditionFailedError) return false;
        throw error;
      }
    },
  };
}

export type ReportPreferences = ReturnType<typeof createReportPreferences>;
