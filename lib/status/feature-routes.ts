import type { ToolKitDeps } from '../catalog/entities.ts';
import type { Route } from '../http/types.ts';
import { type Composed, defineMount, type ToolDeps } from '../platform/feature.ts';
import { bindTools } from '../platform/mcp-tool.ts';
import { getBlastRadius } from './blast-radius-tool.ts';
import type { BoardReads } from './board-reads.ts';
import { listIncidents } from './incidents-tool.ts';
import { getStatusSummary } from './summary-tool.ts';

/** What the board's tools are bound over: the tool kit, the board's and the catalog's reads MCP composes, the incidents' reads. */
interface StatusToolServices {
  mcp: { kit: ToolKitDeps; reads: BoardReads };
  incidents: { service: ToolDeps<typeof listIncidents>['incidents'] };
}

/**
 * The status board's routes, as ./compose.ts builds them, and its tools: the summary and the blast
 * radius over the reads MCP composes, and list_incidents over those and the incidents' reads.
 */
export const statusMount = defineMount({
  name: 'status',
  routes: ({ status }: Composed<'status', Route>) => status.routes,
  tools: bindTools(
    ({ mcp, incidents }: StatusToolServices) => ({ ...mcp.kit, ...mcp.reads, incidents: incidents.service }),
    [getStatusSummary, getBlastRadius, listIncidents],
  ),
});
