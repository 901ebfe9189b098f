import type { ToolKitDeps } from '../catalog/entities.ts';
import type { Route } from '../http/types.ts';
import { type Composed, defineMount } from '../platform/feature.ts';
import { bindTools } from '../platform/mcp-tool.ts';
import { getBlastRadius } from './blast-radius-tool.ts';
import type { BoardReads } from './board-reads.ts';
import { getStatusSummary } from './summary-tool.ts';

/** The status board's routes, as ./compose.ts builds them, and its tools over the board's and the catalog's reads MCP composes. */
export const statusMount = defineMount({
  name: 'status',
  routes: ({ status }: Composed<'status', Route>) => status.routes,
  tools: bindTools(
    ({ mcp }: { mcp: { kit: ToolKitDeps; reads: BoardReads } }) => ({ ...mcp.kit, ...mcp.reads }),
    [getStatusSummary, getBlastRadius],
  ),
});
