import type { Route } from '../http/types.ts';
import type { Clock } from '../platform/clock.ts';
import type { Table } from '../store/table.ts';
import { entityDailyUptime } from '../uptime/daily-uptime.ts';
import { publicStatusPageRoutes } from './public-routes.ts';
import type { DailyUptimeReader } from './public-view.ts';
import { statusPageRoutes } from './routes.ts';
import { createStatusPageService } from './status-page-service.ts';

/** Public status pages: the owner's /v1/status-pages routes and the keyless /p/{slug} ones. */
export function composeStatusPages(deps: {
  table: Table;
  clock: Clock;
  /** False for a tenant gone or disabled by the operator (its public pages go dark: 404). */
  tenantLive: (tenantId: string) => Promise<boolean>;
  dailyUptime?: DailyUptimeReader;
}): {
  routes: Route[];
} {
  const pages = createStatusPageService({ table: deps.table, clock: deps.clock });
  // The 90 daily bars: the uptime feature's daily rollups (never raw results).
  const dailyUptime: DailyUptimeReader =
    deps.dailyUptime ??
    ((tenantId, entityIds, days) =>
      entityDailyUptime({ table: deps.table, clock: deps.clock }, tenantId, entityIds, days));
  return {
    routes: [
      ...statusPageRoutes({ pages }),
      ...publicStatusPageRoutes({
        table: deps.table,
        clock: deps.clock,
        dailyUptime,
        tenantLive: deps.tenantLive,
      }),
    ],
  };
}
