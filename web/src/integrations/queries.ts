import { queryOptions } from '@tanstack/react-query';
import { api, must } from '../api/client';

/** The integration reads (docs/integrations.md): the list (never with tokens) and one's payload log. */

export const integrationKeys = {
  all: ['integrations'] as const,
  payloads: (id: string) => ['integrations', id, 'payloads'] as const,
};

export const integrationQueries = {
  /** GET /v1/integrations: every integration of the account, without its token. */
  list: () =>
    queryOptions({
      queryKey: integrationKeys.all,
      queryFn: async () => (await must(api.GET('/v1/integrations'))).integrations,
    }),
  /** GET /v1/integrations/{id}/payloads: the last 50 requests, newest first, with what each became. */
  payloads: (id: string) =>
    queryOptions({
      queryKey: integrationKeys.payloads(id),
      queryFn: async () =>
        (await must(api.GET('/v1/integrations/{id}/payloads', { params: { path: { id } } }))).payloads,
    }),
};
