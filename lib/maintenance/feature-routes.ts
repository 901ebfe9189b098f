import { defineMount } from '../platform/feature.ts';
import { maintenanceKind } from './config-kind.ts';
import { createMaintenanceService, type MaintenanceServiceDeps } from './maintenance-service.ts';
import { maintenanceRoutes } from './routes.ts';

/** Maintenance windows' routes, over their own service, and the windows of the configuration document. */
export const maintenanceMount = defineMount({
  name: 'maintenance',
  routes: ({ table, clock }: MaintenanceServiceDeps) =>
    maintenanceRoutes({ maintenance: createMaintenanceService({ table, clock }) }),
  configKinds: [maintenanceKind],
});
