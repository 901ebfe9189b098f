import { queryOptions } from '@tanstack/react-query';
import { api, must } from '../api/client';

/**
 * The location reads. A location goes offline with the clock (no heartbeat for 90 s), not with a
 * change anyone makes, so the list is read again every REFRESH_MS.
 */

const REFRESH_MS = 30_000;

export const locationKeys = {
  all: ['locations'] as const,
  keys: (id: string) => ['locations', id, 'keys'] as const,
};

export const locationQueries = {
  /** GET /v1/locations: `default` first, then the tenant's, each online or offline. */
  list: () =>
    queryOptions({
      queryKey: locationKeys.all,
      queryFn: async () => (await must(api.GET('/v1/locations'))).locations,
      refetchInterval: REFRESH_MS,
    }),
  /** GET /v1/locations/{id}/keys (admins): ids and prefixes, never the keys. */
  keys: (id: string) =>
    queryOptions({
      queryKey: locationKeys.keys(id),
      queryFn: async () =>
        (await must(api.GET('/v1/locations/{id}/keys', { params: { path: { id } } }))).keys,
    }),
};
