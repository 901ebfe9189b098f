import { defineMount } from '../platform/feature.ts';
import { createMaintenanceService, type MaintenanceServiceDeps } from './maintenance-service.ts';
import { maintenanceRoutes } from './routes.ts';

/** Maintenance windows' routes, over their own service. */
export const maintenanceMount = defineMount({
  name: 'maintenance',
  routes: ({ table, clock }: MaintenanceServiceDeps) =>
    maintenanceRoutes({ maintenance: createMaintenanceService({ table, clock }) }),
});
