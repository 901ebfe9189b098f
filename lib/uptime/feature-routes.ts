import type { ToolKitDeps } from '../catalog/entities.ts';
import { defineMount } from '../platform/feature.ts';
import { bindTools } from '../platform/mcp-tool.ts';
import { getUptime } from './mcp-tools.ts';
import { uptimeRoutes } from './routes.ts';
import { createUptimeService, type UptimeDeps } from './uptime-service.ts';

/** The uptime routes (figures per window), over their own service, and get_uptime over the same. */
export const uptimeMount = defineMount({
  name: 'uptime',
  routes: ({ table, clock, cursors, checkService }: UptimeDeps) =>
    uptimeRoutes({ uptime: createUptimeService({ table, clock, cursors, checkService }) }),
  tools: bindTools(
    ({ mcp, table, clock, cursors, checkService }: UptimeDeps & { mcp: { kit: ToolKitDeps } }) => ({
      ...mcp.kit,
      uptime: createUptimeService({ table, clock, cursors, checkService }),
      checkService,
    }),
    [getUptime],
  ),
});
