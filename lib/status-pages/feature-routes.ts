import type { ToolKitDeps } from '../catalog/entities.ts';
import type { Route } from '../http/types.ts';
import type { Clock } from '../platform/clock.ts';
import { type Composed, defineMount } from '../platform/feature.ts';
import { bindTools } from '../platform/mcp-tool.ts';
import type { Table } from '../store/table.ts';
import { statusPagesKind } from './config-kind.ts';
import { createPageIncident, updatePageIncident } from './mcp-tools.ts';
import { createPageIncidentService } from './page-incidents.ts';

/**
 * Status pages' routes, as ./compose.ts builds them, their kind of the configuration document, and
 * the page incident tools over the page incidents' service.
 */
export const statusPagesMount = defineMount({
  name: 'statusPages',
  routes: ({ statusPages }: Composed<'statusPages', Route>) => statusPages.routes,
  configKinds: [statusPagesKind],
  tools: bindTools(
    ({ mcp, table, clock }: { mcp: { kit: ToolKitDeps }; table: Table; clock: Clock }) => ({
      ...mcp.kit,
      pageIncidents: createPageIncidentService({ table, clock }),
    }),
    [createPageIncident, updatePageIncident],
  ),
});
