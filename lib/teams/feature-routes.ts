import type { ToolKitDeps } from '../catalog/entities.ts';
import type { AuthedRoute } from '../http/types.ts';
import { defineMount, type ToolDeps } from '../platform/feature.ts';
import { bindTools } from '../platform/mcp-tool.ts';
import { teamsKind } from './config-kind.ts';
import { whoIsOnCall } from './mcp-tools.ts';

/** What the teams' tool is bound over: the tool kit and the who service ./compose.ts builds. */
interface TeamsToolServices {
  mcp: { kit: ToolKitDeps };
  teams: { who: ToolDeps<typeof whoIsOnCall>['who'] };
}

/** Teams' routes, as ./compose.ts builds them, their kind of the configuration document, and who_is_on_call. */
export const teamsMount = defineMount({
  name: 'teams',
  // Typed without the literal 'teams' (a channel type's name: test/architecture/variant-switches.test.ts).
  routes: ({ teams }: { teams: { routes: readonly AuthedRoute[] } }) => teams.routes,
  configKinds: [teamsKind],
  tools: bindTools(({ mcp, teams }: TeamsToolServices) => ({ ...mcp.kit, who: teams.who }), [whoIsOnCall]),
});
