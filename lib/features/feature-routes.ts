import { ackLinksMount } from '../ack-links/feature-routes.ts';
import { actionsKind } from '../actions/config-kind.ts';
import { createAuditService } from '../audit/audit-service.ts';
import { createEntitySearch } from '../catalog/services.ts';
import type { AnyConfigKind } from '../config-doc/kind.ts';
import { documentKinds } from '../config-doc/registry.ts';
import { contactsMount } from '../contacts/feature-routes.ts';
import { escalationPoliciesKind } from '../escalation/config-kind.ts';
import type { Route } from '../http/types.ts';
import { importersMount } from '../importers/feature-routes.ts';
import { integrationsKind } from '../integrations/config-kind.ts';
import { maintenanceMount } from '../maintenance/feature-routes.ts';
import { createMaintenanceService } from '../maintenance/maintenance-service.ts';
import {
  acknowledgeIncident,
  acknowledgeOutsideAlert,
  addIncidentNote,
  applyConfig,
  type BoundTool,
  type BuiltinTool,
  bindTools,
  createMaintenance,
  createPageIncident,
  explainAlerting,
  getActionRun,
  getAuditLog,
  getBlastRadius,
  getCheckRuns,
  getPingLog,
  getStatusSummary,
  getUptime,
  listHeartbeats,
  listIncidents,
  listMaintenance,
  listOutsideAlerts,
  OWN_TOOLS,
  planConfig,
  resolveIncident,
  resolveOutsideAlert,
  searchEntities,
  startMaintenance,
  type ToolBinding,
  updatePageIncident,
  whoIsOnCall,
} from '../mcp/builtin-tools.ts';
import { onCallMount } from '../oncall/feature-routes.ts';
import { defineMount, type Mount, mountAll, mountedConfigKinds, mountedTools } from '../platform/feature.ts';
import { pushMount } from '../push/feature-routes.ts';
import { createPingLogService } from '../push/ping-log.ts';
import { createRunLogService } from '../push/run-log.ts';
import { searchMount } from '../search/feature-routes.ts';
import { skillsKind } from '../skills/config-kind.ts';
import { statusPagesKind } from '../status-pages/config-kind.ts';
import { createPageIncidentService } from '../status-pages/page-incidents.ts';
import { teamsKind } from '../teams/config-kind.ts';
import { uptimeMount } from '../uptime/feature-routes.ts';
import { createUptimeService } from '../uptime/uptime-service.ts';
import type { Services } from './compose-services.ts';
import { catalogMount, checksMount, healthMount, mcpMount } from './core-routes.ts';
import { channelsKind } from './kinds/channels.ts';
import { routesKind } from './kinds/routes.ts';

/**
 * THE mount list: each feature's routes, mounted over the shared services (./compose-services.ts)
 * in this order, which is the route table's and the OpenAPI document's. A feature whose routes use
 * only what the app shares declares them in its route face (lib/<feature>/feature-routes.ts,
 * `defineMount`); one whose compose.ts builds its routes with the services it shares is mounted by
 * its name in the services (`composed`); the folders whose faces are full have theirs in
 * ./core-routes.ts. Heavy (handlers): only the API composition loads it
 * (lib/app.ts; test/architecture/lean-functions.test.ts keeps it out of the lean functions).
 */

/** The services' names whose value carries its feature's routes. */
type Composed = {
  [K in keyof Services]-?: Services[K] extends { routes: readonly Route[] } ? K : never;
}[keyof Services];

type ServiceMount = Mount<Services, Route, AnyConfigKind, ToolBinding<Services>>;

/**
 * A feature composed with the services (its compose.ts returns its routes): mounted by its name
 * there, with the configuration kinds and the MCP tools it brings (each tool bound over the tool
 * kit, `services.mcp.kit`, and this feature's own services).
 */
const composed = (
  name: Composed,
  brings: Pick<ServiceMount, 'configKinds' | 'tools'> = {},
): ServiceMount => ({
  name,
  routes: (services) => (services[name] as { routes: readonly Route[] }).routes,
  ...brings,
});

/** Outside alerts' routes: the authenticated ones, then the integration URLs senders post to. */
const integrationsMount = defineMount({
  name: 'integrations',
  routes: ({ integrations: { routes } }: Pick<Services, 'integrations'>) => [
    ...routes.authed,
    ...routes.open,
  ],
  configKinds: [integrationsKind],
  tools: bindTools(
    ({ mcp, integrations }: Pick<Services, 'mcp' | 'integrations'>) => ({
      ...mcp.kit,
      outsideAlerts: integrations.outsideAlerts,
    }),
    [listOutsideAlerts, acknowledgeOutsideAlert, resolveOutsideAlert],
  ),
});

/** Maintenance windows' mount, with their tools over the windows' service and the checks a window names. */
const maintenanceWithTools: ServiceMount = {
  ...maintenanceMount,
  tools: bindTools(
    ({ mcp, table, clock, checkService }: Services) => ({
      ...mcp.kit,
      maintenance: createMaintenanceService({ table, clock }),
      checkService,
    }),
    [listMaintenance, createMaintenance, startMaintenance],
  ),
};

/** The uptime mount, with get_uptime over the uptime service. */
const uptimeWithTools: ServiceMount = {
  ...uptimeMount,
  tools: bindTools(
    ({ mcp, table, clock, cursors, checkService }: Services) => ({
      ...mcp.kit,
      uptime: createUptimeService({ table, clock, cursors, checkService }),
      checkService,
    }),
    [getUptime],
  ),
};

/** The push checks' mount, with the heartbeat tools over the ping log and the run log. */
const pushWithTools: ServiceMount = {
  ...pushMount,
  tools: bindTools(
    ({ mcp, table, clock, cursors, checkService }: Services) => ({
      ...mcp.kit,
      checkService,
      pingLog: createPingLogService({ table, checkService, clock, cursors }),
      runLog: createRunLogService({ table, checkService, clock, cursors }),
    }),
    [listHeartbeats, getPingLog, getCheckRuns],
  ),
};

/** The search mount, with search_entities over the search indexes and the board MCP composes. */
const searchWithTools: ServiceMount = {
  ...searchMount,
  tools: bindTools(
    ({ mcp, table, cursors }: Services) => ({
      ...mcp.kit,
      status: mcp.reads.status,
      search: createEntitySearch({ table, cursors }),
    }),
    [searchEntities],
  ),
};

const MOUNTS: readonly ServiceMount[] = [
  healthMount,
  composed('people', {
    tools: bindTools(
      ({ mcp, table, clock, cursors }: Services) => ({
        ...mcp.kit,
        audit: createAuditService({ table, clock, cursors }),
      }),
      [getAuditLog],
    ),
  }),
  catalogMount,
  checksMount,
  composed('status', {
    // The board's tools, over the board's and the catalog's reads MCP composes.
    tools: bindTools(
      ({ mcp }: Services) => ({ ...mcp.kit, ...mcp.reads }),
      [getStatusSummary, getBlastRadius],
    ),
  }),
  pushWithTools,
  composed('notifications', {
    configKinds: [channelsKind, routesKind],
    tools: bindTools(
      ({ mcp, notifications }: Services) => ({ ...mcp.kit, simulator: notifications.simulator }),
      [explainAlerting],
    ),
  }),
  maintenanceWithTools,
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
  composed('incidents', {
    tools: bindTools(
      ({ mcp, incidents }: Services) => ({
        ...mcp.kit,
        status: mcp.reads.status,
        incidents: incidents.service,
      }),
      [listIncidents, acknowledgeIncident, addIncidentNote, resolveIncident],
    ),
  }),
  composed('statusPages', {
    configKinds: [statusPagesKind],
    tools: bindTools(
      ({ mcp, table, clock }: Services) => ({
        ...mcp.kit,
        pageIncidents: createPageIncidentService({ table, clock }),
      }),
      [createPageIncident, updatePageIncident],
    ),
  }),
  uptimeWithTools,
  composed('reports'),
  onCallMount,
  contactsMount,
  composed('teams', {
    configKinds: [teamsKind],
    tools: bindTools(({ mcp, teams }: Services) => ({ ...mcp.kit, who: teams.who }), [whoIsOnCall]),
  }),
  integrationsMount,
  ackLinksMount,
  composed('escalation', { configKinds: [escalationPoliciesKind] }),
  composed('locations'),
  searchWithTools,
  composed('skills', { configKinds: [skillsKind] }),
  importersMount,
  composed('configDocs', {
    tools: bindTools(
      ({ mcp, configDocs }: Services) => ({ ...mcp.kit, config: () => configDocs.engine }),
      [planConfig, applyConfig],
    ),
  }),
  mcpMount,
];

/** Every feature's routes over the shared services, in the list's order. */
export const featureRoutes = (services: Services): Route[] => mountAll(MOUNTS, services);

/** Every feature's MCP tools over the shared services, each bound over its own (the tool catalog's built-ins). */
export const featureTools = (services: Services): BoundTool[] => mountedTools(MOUNTS, services);

/** Every built-in tool's definition: MCP's own, then each mount's, in the list's order. */
export const BUILTIN_TOOLS: readonly BuiltinTool<never>[] = [
  ...OWN_TOOLS,
  ...MOUNTS.flatMap((mount) => mount.tools?.tools ?? []),
];

/** The configuration document's kinds, as the mounts declare them (the configuration engine's set). */
export const CONFIG_KINDS = documentKinds(mountedConfigKinds(MOUNTS));
