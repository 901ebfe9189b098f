import type { ToolKitDeps } from '../catalog/entities.ts';
import { createEntitySearch } from '../catalog/services.ts';
import { defineMount, type ToolDeps } from '../platform/feature.ts';
import { bindTools } from '../platform/mcp-tool.ts';
import { searchEntities } from './mcp-tools.ts';
import { searchRoutes } from './routes.ts';
import type { SearchDeps } from './search-kinds.ts';

/** What search_entities is bound over: the tool kit, the board's reads MCP composes, and the indexes. */
type SearchToolServices = Pick<SearchDeps, 'table' | 'cursors'> & {
  mcp: { kit: ToolKitDeps; reads: { status: ToolDeps<typeof searchEntities>['status'] } };
};

/** The search route across the tenant's kinds, and search_entities over the search indexes. */
export const searchMount = defineMount({
  name: 'search',
  routes: ({ table, cursors, tenantChannels }: SearchDeps) =>
    searchRoutes({ table, cursors, tenantChannels }),
  tools: bindTools(
    ({ mcp, table, cursors }: SearchToolServices) => ({
      ...mcp.kit,
      status: mcp.reads.status,
      search: createEntitySearch({ table, cursors }),
    }),
    [searchEntities],
  ),
});
