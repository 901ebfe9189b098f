import type { ActionStore } from '../actions/stores.ts';
import type { Route } from '../http/types.ts';
import type { Clock } from '../platform/clock.ts';
import type { Table } from '../store/table.ts';
import type { CreateSkillBody } from './manifest.ts';
import { skillRoutes } from './routes.ts';
import { createSkillService } from './skill-service.ts';
import { createSkillStore } from './skill-store.ts';

export interface SkillsDeps {
  table: Table;
  clock: Clock;
  /** The tenant's actions, which runbook tools name. */
  actions: Pick<ActionStore, 'get'>;
  /** The built-in toolsets POST /v1/skills/builtin/{toolset} registers (lib/mcp's manifests). */
  toolsets: readonly CreateSkillBody[];
}

/** The skills feature as the app composes it: the store (the MCP tool catalog reads it) and the routes. */
export function composeSkills(deps: SkillsDeps) {
  const skills = createSkillStore(deps.table);
  const routes: Route[] = skillRoutes({
    skillService: createSkillService({
      skills,
      clock: deps.clock,
      actionExists: async (tenantId, actionId) => (await deps.actions.get(tenantId, actionId)) !== undefined,
    }),
    toolsets: deps.toolsets,
  });
  return { skills, routes };
}
