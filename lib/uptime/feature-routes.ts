import { defineMount } from '../platform/feature.ts';
import { uptimeRoutes } from './routes.ts';
import { createUptimeService, type UptimeDeps } from './uptime-service.ts';

/** The uptime routes (figures per window), over their own service. */
export const uptimeMount = defineMount({
  name: 'uptime',
  routes: ({ table, clock, cursors, checkService }: UptimeDeps) =>
    uptimeRoutes({ uptime: createUptimeService({ table, clock, cursors, checkService }) }),
});
