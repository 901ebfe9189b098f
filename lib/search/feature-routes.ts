import { defineMount } from '../platform/feature.ts';
import { searchRoutes } from './routes.ts';
import type { SearchDeps } from './search-kinds.ts';

/** The search route across the tenant's kinds. */
export const searchMount = defineMount({
  name: 'search',
  routes: ({ table, cursors, tenantChannels }: SearchDeps) =>
    searchRoutes({ table, cursors, tenantChannels }),
});
