import type { BlueprintStore } from '../catalog/blueprints.ts';
import type { EntityStore } from '../catalog/entities.ts';
import type { AuthedRoute } from '../http/types.ts';
import { createScheduleService } from '../oncall/schedule-service.ts';
import type { Clock } from '../platform/clock.ts';
import type { Table } from '../store/table.ts';
import { teamRoutes } from './team-routes.ts';
import { createTeamService, type TeamPolicies } from './team-service.ts';
import { createWhoService, type WhoService } from './who-service.ts';

/** Teams and who is on call (issue 55 item 5): the routes, and the who service for the MCP tool. */
export function composeTeams(deps: {
  table: Table;
  clock: Clock;
  blueprints: Pick<BlueprintStore, 'get'>;
  entities: Pick<EntityStore, 'getById'>;
  /** The tenant's escalation policies (lib/escalation's): a team names one; who_is_on_call reads its first step. */
  policies?: TeamPolicies;
}): { routes: AuthedRoute[]; who: WhoService } {
  const teams = createTeamService(deps);
  const who = createWhoService({ ...deps, schedules: createScheduleService(deps) });
  return { routes: teamRoutes({ teams, who }), who };
}
