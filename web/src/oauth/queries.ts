import { queryOptions } from '@tanstack/react-query';
import { api, must } from '../api/client';

/** OAuth for MCP clients: a pending consent request, and the person's connected clients (grants). */

export const oauthKeys = {
  request: (id: string) => ['oauth-request', id] as const,
  grants: ['oauth-grants'] as const,
};

export const oauthQueries = {
  /** GET /v1/oauth/requests/{id}: what the consent page shows (opening it makes the request yours). */
  request: (id: string) =>
    queryOptions({
      queryKey: oauthKeys.request(id),
      queryFn: () => must(api.GET('/v1/oauth/requests/{id}', { params: { path: { id } } })),
      retry: false,
    }),
  /** GET /v1/oauth/grants: your connected MCP clients. */
  grants: () =>
    queryOptions({ queryKey: oauthKeys.grants, queryFn: () => must(api.GET('/v1/oauth/grants')) }),
};
