import type { ToolKitDeps } from '../catalog/entities.ts';
import { defineMount, type ToolDeps } from '../platform/feature.ts';
import { bindTools } from '../platform/mcp-tool.ts';
import { maintenanceKind } from './config-kind.ts';
import { createMaintenanceService, type MaintenanceServiceDeps } from './maintenance-service.ts';
import { createMaintenance, listMaintenance, startMaintenance } from './mcp-tools.ts';
import { maintenanceRoutes } from './routes.ts';

/** What the windows' tools are bound over: the tool kit, their service's deps and the checks a window names. */
type MaintenanceToolServices = MaintenanceServiceDeps & {
  mcp: { kit: ToolKitDeps };
  checkService: ToolDeps<typeof createMaintenance>['checkService'];
};

/**
 * Maintenance windows' routes, over their own service, the windows of the configuration document,
 * and their tools over the same service and the checks a window names.
 */
export const maintenanceMount = defineMount({
  name: 'maintenance',
  routes: ({ table, clock }: MaintenanceServiceDeps) =>
    maintenanceRoutes({ maintenance: createMaintenanceService({ table, clock }) }),
  configKinds: [maintenanceKind],
  tools: bindTools(
    ({ mcp, table, clock, checkService }: MaintenanceToolServices) => ({
      ...mcp.kit,
      maintenance: createMaintenanceService({ table, clock }),
      checkService,
    }),
    [listMaintenance, createMaintenance, startMaintenance],
  ),
});
