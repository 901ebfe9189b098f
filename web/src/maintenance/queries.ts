import { type QueryClient, useQuery } from '@tanstack/react-query';
import { api, must } from '../api/client';
import { entityKeys, statusKeys } from '../catalog/queries';

/**
 * The maintenance reads. A window turns on and off with the clock, not with a change anyone makes,
 * so the list (whose `active` the API computes when read) is read again every REFRESH_MS.
 */

const REFRESH_MS = 30_000;

const maintenanceKeys = {
  all: ['maintenance'] as const,
};

/** GET /v1/maintenance: the tenant's windows, oldest first. */
export function useWindows() {
  return useQuery({
    queryKey: maintenanceKeys.all,
    queryFn: async () => (await must(api.GET('/v1/maintenance'))).windows,
    refetchInterval: REFRESH_MS,
  });
}

/** After a window is created, changed or deleted: the windows, and the entities' `in_maintenance`. */
export async function windowsChanged(queryClient: QueryClient): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: maintenanceKeys.all }),
    queryClient.invalidateQueries({ queryKey: statusKeys.all }),
    queryClient.invalidateQueries({ queryKey: entityKeys.all }),
  ]);
}
