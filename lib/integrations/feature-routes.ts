import type { ToolKitDeps } from '../catalog/entities.ts';
import type { AuthedRoute, PublicRoute } from '../http/types.ts';
import { defineMount } from '../platform/feature.ts';
import { bindTools } from '../platform/mcp-tool.ts';
import { integrationsKind } from './config-kind.ts';
import {
  acknowledgeOutsideAlert,
  listOutsideAlerts,
  type OutsideAlertToolDeps,
  resolveOutsideAlert,
} from './mcp-tools.ts';

/** What outside alerts' mount takes: the integrations as ./compose.ts builds them, and the tool kit. */
interface IntegrationsMountServices {
  integrations: {
    routes: { authed: readonly AuthedRoute[]; open: readonly PublicRoute[] };
    outsideAlerts: OutsideAlertToolDeps['outsideAlerts'];
  };
  mcp: { kit: ToolKitDeps };
}

/**
 * Outside alerts' routes (the authenticated ones, then the integration URLs senders post to), the
 * integrations of the configuration document, and the outside alerts' tools.
 */
export const integrationsMount = defineMount({
  name: 'integrations',
  routes: ({ integrations: { routes } }: Pick<IntegrationsMountServices, 'integrations'>) => [
    ...routes.authed,
    ...routes.open,
  ],
  configKinds: [integrationsKind],
  tools: bindTools(
    ({ mcp, integrations }: IntegrationsMountServices) => ({
      ...mcp.kit,
      outsideAlerts: integrations.outsideAlerts,
    }),
    [listOutsideAlerts, acknowledgeOutsideAlert, resolveOutsideAlert],
  ),
});
