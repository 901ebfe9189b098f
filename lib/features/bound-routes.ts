import { actionsKind } from '../actions/config-kind.ts';
import type { Route } from '../http/types.ts';
import { bindTools } from '../platform/mcp-tool.ts';
import { pushMount as pushRoutes } from '../push/feature-routes.ts';
import { createPingLogService } from '../push/ping-log.ts';
import { createRunLogService } from '../push/run-log.ts';
import type { Services } from './compose-services.ts';
import { channelsKind } from './kinds/channels.ts';
import { routesKind } from './kinds/routes.ts';
import { type ListedMount, listedMount, type ServiceMount } from './service-mount.ts';
import { getActionRun } from './tools/action-runs.ts';
import { getCheckRuns } from './tools/check-runs.ts';
import { applyConfig, planConfig } from './tools/config.ts';
import { explainAlerting } from './tools/explain-alerting.ts';
import { getPingLog, listHeartbeats } from './tools/heartbeats.ts';

/*
 * The mounts that cannot live in their feature's folder, each feature's routes (its compose.ts's,
 * or its route face's) with its tools bound over the tool kit (`services.mcp.kit`) and its own
 * services: notify's and actions' (their folders' faces are full), push's and the configuration
 * document's (their tools are in ./tools/: lib/push's face is full, and lib/config-doc names no
 * feature). The feature list (./list.ts) names each of them; every other feature mounts from its
 * own folder.
 */

/** The services' names whose value carries its feature's routes. */
type Composed = {
  [K in keyof Services]-?: Services[K] extends { routes: readonly Route[] } ? K : never;
}[keyof Services];

/**
 * A feature composed with the services (its compose.ts returns its routes): mounted by its name
 * there, with the configuration kinds and the MCP tools it brings.
 */
const composed = (
  name: Composed,
  brings: Pick<ServiceMount, 'configKinds' | 'tools'> = {},
): ServiceMount => ({
  name,
  routes: (services) => (services[name] as { routes: readonly Route[] }).routes,
  ...brings,
});

/** The push checks' routes, with the heartbeat tools over the ping log and the run log. */
export const pushMount: ListedMount = listedMount({
  ...pushRoutes,
  tools: bindTools(
    ({ mcp, table, clock, cursors, checkService }: Services) => ({
      ...mcp.kit,
      checkService,
      pingLog: createPingLogService({ table, checkService, clock, cursors }),
      runLog: createRunLogService({ table, checkService, clock, cursors }),
    }),
    [listHeartbeats, getPingLog, getCheckRuns],
  ),
});

/** Notifications' routes, their channels and routes of the configuration document, and explain_alerting. */
export const notificationsMount: ListedMount = listedMount(
  composed('notifications', {
    configKinds: [channelsKind, routesKind],
    tools: bindTools(
      ({ mcp, notifications }: Services) => ({ ...mcp.kit, simulator: notifications.simulator }),
      [explainAlerting],
    ),
  }),
);

/** Actions' routes, their kind of the configuration document, and get_action_run. */
export const actionsMount: ListedMount = listedMount(
  composed('actions', {
    configKinds: [actionsKind],
    tools: bindTools(
      ({ mcp, actions }: Services) => ({
        ...mcp.kit,
        executions: actions.executions,
        actions: actions.actions,
      }),
      [getActionRun],
    ),
  }),
);

/** The configuration document's routes (plan, apply, export), with its tools over the engine. */
export const configDocsMount: ListedMount = listedMount(
  composed('configDocs', {
    tools: bindTools(
      ({ mcp, configDocs }: Services) => ({ ...mcp.kit, config: () => configDocs.engine }),
      [planConfig, applyConfig],
    ),
  }),
);
