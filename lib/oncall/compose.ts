import type { HostPolicy } from '../http/origin-policy.ts';
import type { Route } from '../http/types.ts';
import type { Clock } from '../platform/clock.ts';
import type { Table } from '../store/table.ts';
import { feedCalendarRoute, feedRoutes } from './feeds/feed-routes.ts';
import { createFeedService } from './feeds/feed-service.ts';
import { scheduleRoutes } from './schedule-routes.ts';
import { createScheduleService } from './schedule-service.ts';

/** On-call (issue 55): the schedule routes over the table, and the schedules' calendar feeds. */
export function composeOnCall(deps: {
  table: Table;
  clock: Clock;
  /** The host names Vigil answers under and VIGIL_PUBLIC_URL: a new feed's URL is on them. */
  hosts: HostPolicy;
  /** False for a tenant gone or disabled by the operator: its feeds answer 404. */
  tenantLive: (tenantId: string) => Promise<boolean>;
}): { routes: Route[] } {
  const schedules = createScheduleService({ table: deps.table, clock: deps.clock });
  const feeds = createFeedService({ table: deps.table, clock: deps.clock, tenantLive: deps.tenantLive });
  return {
    routes: [
      ...scheduleRoutes({ schedules }),
      ...feedRoutes({ feeds, hosts: deps.hosts }),
      feedCalendarRoute({ feeds }),
    ],
  };
}
