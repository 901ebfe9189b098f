import { ackLinksMount } from '../ack-links/feature-routes.ts';
import type { AnyConfigKind } from '../config-doc/kind.ts';
import { documentKinds } from '../config-doc/registry.ts';
import { contactsMount } from '../contacts/feature-routes.ts';
import { escalationMount } from '../escalation/feature-routes.ts';
import type { Route } from '../http/types.ts';
import { importersMount } from '../importers/feature-routes.ts';
import { locationsMount } from '../locations/feature-routes.ts';
import { type BoundTool, type BuiltinTool, OWN_TOOLS, type ToolBinding } from '../mcp/builtin-tools.ts';
import { onCallMount } from '../oncall/feature-routes.ts';
import { type Mount, mountAll, mountedConfigKinds, mountedTools } from '../platform/feature.ts';
import { reportsMount } from '../reports/feature-routes.ts';
import { skillsMount } from '../skills/feature-routes.ts';
import {
  actionsMount,
  configDocsMount,
  incidentsMount,
  integrationsMount,
  maintenanceMount,
  notificationsMount,
  peopleMount,
  pushMount,
  searchMount,
  statusMount,
  statusPagesMount,
  teamsMount,
  uptimeMount,
} from './bound-routes.ts';
import type { Services } from './compose-services.ts';
import { catalogMount, checksMount, healthMount, mcpMount } from './core-routes.ts';

/**
 * THE mount list: each feature's routes, mounted over the shared services (./compose-services.ts)
 * in this order, which is the route table's and the OpenAPI document's. A feature declares its
 * mount in its route face (lib/<feature>/feature-routes.ts, `defineMount`); the features whose
 * MCP tools lib/mcp defines have theirs in ./bound-routes.ts, and the folders whose faces are
 * full in ./core-routes.ts. Heavy (handlers): only the API composition loads it
 * (lib/app.ts; test/architecture/lean-functions.test.ts keeps it out of the lean functions).
 */

type ServiceMount = Mount<Services, Route, AnyConfigKind, ToolBinding<Services>>;

const MOUNTS: readonly ServiceMount[] = [
  healthMount,
  peopleMount,
  catalogMount,
  checksMount,
  statusMount,
  pushMount,
  notificationsMount,
  maintenanceMount,
  actionsMount,
  incidentsMount,
  statusPagesMount,
  uptimeMount,
  reportsMount,
  onCallMount,
  contactsMount,
  teamsMount,
  integrationsMount,
  ackLinksMount,
  escalationMount,
  locationsMount,
  searchMount,
  skillsMount,
  importersMount,
  configDocsMount,
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
