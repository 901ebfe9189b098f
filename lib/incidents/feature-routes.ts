import type { ToolKitDeps } from '../catalog/entities.ts';
import type { Route } from '../http/types.ts';
import { defineMount, type ToolDeps } from '../platform/feature.ts';
import { bindTools } from '../platform/mcp-tool.ts';
import { acknowledgeIncident, addIncidentNote, resolveIncident } from './mcp-tools.ts';

/** What the incidents' mount takes: their routes and service as ./compose.ts builds them, and the tool kit. */
interface IncidentsMountServices {
  incidents: { routes: readonly Route[]; service: ToolDeps<typeof acknowledgeIncident>['incidents'] };
  mcp: { kit: ToolKitDeps };
}

/**
 * Incidents' routes, and their writing tools over the incidents' service (list_incidents, which
 * reads the board's transitions too, is bound by the status board's mount: lib/status imports this
 * folder).
 */
export const incidentsMount = defineMount({
  name: 'incidents',
  routes: ({ incidents }: Pick<IncidentsMountServices, 'incidents'>) => incidents.routes,
  tools: bindTools(
    ({ mcp, incidents }: IncidentsMountServices) => ({ ...mcp.kit, incidents: incidents.service }),
    [acknowledgeIncident, addIncidentNote, resolveIncident],
  ),
});
