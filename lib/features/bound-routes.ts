import { actionsKind } from '../actions/config-kind.ts';
import { createAuditService } from '../audit/audit-service.ts';
import { getAuditLog } from '../audit/mcp-tools.ts';
import { createEntitySearch } from '../catalog/services.ts';
import type { Route } from '../http/types.ts';
import { acknowledgeIncident, addIncidentNote, resolveIncident } from '../incidents/mcp-tools.ts';
import { integrationsKind } from '../integrations/config-kind.ts';
import {
  acknowledgeOutsideAlert,
  listOutsideAlerts,
  resolveOutsideAlert,
} from '../integrations/mcp-tools.ts';
import { maintenanceMount as maintenanceRoutes } from '../maintenance/feature-routes.ts';
import { createMaintenanceService } from '../maintenance/maintenance-service.ts';
import { createMaintenance, listMaintenance, startMaintenance } from '../maintenance/mcp-tools.ts';
import { defineMount } from '../platform/feature.ts';
import { bindTools } from '../platform/mcp-tool.ts';
import { pushMount as pushRoutes } from '../push/feature-routes.ts';
import { createPingLogService } from '../push/ping-log.ts';
import { createRunLogService } from '../push/run-log.ts';
import { searchMount as searchRoutes } from '../search/feature-routes.ts';
import { searchEntities } from '../search/mcp-tools.ts';
import { getBlastRadius } from '../status/blast-radius-tool.ts';
import { listIncidents } from '../status/incidents-tool.ts';
import { getStatusSummary } from '../status/summary-tool.ts';
import { statusPagesKind } from '../status-pages/config-kind.ts';
import { createPageIncident, updatePageIncident } from '../status-pages/mcp-tools.ts';
import { createPageIncidentService } from '../status-pages/page-incidents.ts';
import { teamsKind } from '../teams/config-kind.ts';
import { whoIsOnCall } from '../teams/mcp-tools.ts';
import { uptimeMount as uptimeRoutes } from '../uptime/feature-routes.ts';
import { getUptime } from '../uptime/mcp-tools.ts';
import { createUptimeService } from '../uptime/uptime-service.ts';
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
 * The mounts of the features whose MCP tools lib/mcp defines and which lib/mcp's own composition
 * imports (a binding in their folder would make it and lib/mcp import each other): each feature's
 * routes (its compose.ts's, or its route face's) with its tools bound over the tool kit
 * (`services.mcp.kit`) and its own services. The feature list (./list.ts) names each of them.
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

/** People's routes, with get_audit_log over the audit log. */
export const peopleMount: ListedMount = listedMount(
  composed('people', {
    tools: bindTools(
      ({ mcp, table, clock, cursors }: Services) => ({
        ...mcp.kit,
        audit: createAuditService({ table, clock, cursors }),
      }),
      [getAuditLog],
    ),
  }),
);

/** The status board's routes, with its tools over the board's and the catalog's reads MCP composes. */
export const statusMount: ListedMount = listedMount(
  composed('status', {
    tools: bindTools(
      ({ mcp }: Services) => ({ ...mcp.kit, ...mcp.reads }),
      [getStatusSummary, getBlastRadius],
    ),
  }),
);

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

/** Maintenance windows' routes, with their tools over the windows' service and the checks a window names. */
export const maintenanceMount: ListedMount = listedMount({
  ...maintenanceRoutes,
  tools: bindTools(
    ({ mcp, table, clock, checkService }: Services) => ({
      ...mcp.kit,
      maintenance: createMaintenanceService({ table, clock }),
      checkService,
    }),
    [listMaintenance, createMaintenance, startMaintenance],
  ),
});

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

/** Incidents' routes, with their tools over the incidents' service and the board's transitions. */
export const incidentsMount: ListedMount = listedMount(
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
);

/** Status pages' routes, their kind of the configuration document, and the page incident tools. */
export const statusPagesMount: ListedMount = listedMount(
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
);

/** The uptime routes, with get_uptime over the uptime service. */
export const uptimeMount: ListedMount = listedMount({
  ...uptimeRoutes,
  tools: bindTools(
    ({ mcp, table, clock, cursors, checkService }: Services) => ({
      ...mcp.kit,
      uptime: createUptimeService({ table, clock, cursors, checkService }),
      checkService,
    }),
    [getUptime],
  ),
});

/** Teams' routes, their kind of the configuration document, and who_is_on_call. */
export const teamsMount: ListedMount = listedMount(
  composed('teams', {
    configKinds: [teamsKind],
    tools: bindTools(({ mcp, teams }: Services) => ({ ...mcp.kit, who: teams.who }), [whoIsOnCall]),
  }),
);

/** Outside alerts' routes: the authenticated ones, then the integration URLs senders post to. */
export const integrationsMount: ListedMount = listedMount(
  defineMount({
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
  }),
);

/** The search route, with search_entities over the search indexes and the board MCP composes. */
export const searchMount: ListedMount = listedMount({
  ...searchRoutes,
  tools: bindTools(
    ({ mcp, table, cursors }: Services) => ({
      ...mcp.kit,
      status: mcp.reads.status,
      search: createEntitySearch({ table, cursors }),
    }),
    [searchEntities],
  ),
});

/** The configuration document's routes (plan, apply, export), with its tools over the engine. */
export const configDocsMount: ListedMount = listedMount(
  composed('configDocs', {
    tools: bindTools(
      ({ mcp, configDocs }: Services) => ({ ...mcp.kit, config: () => configDocs.engine }),
      [planConfig, applyConfig],
    ),
  }),
);
