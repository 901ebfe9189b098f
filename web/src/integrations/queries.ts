import { queryOptions } from '@tanstack/react-query';
import { api, must } from '../api/client';

/** The integration reads (docs/integrations.md): the list (never with tokens) and one's payload log. */

export const integrationKeys = {
  all: ['integrations'] as const,
  payloads: (id: string) => ['integrations', id, 'payloads'] as const,
  /** An entity's outside alerts (under the integrations: a new alert is theirs). */
  onEntity: (entityId: string) => ['integrations', 'outside-alerts', entityId] as const,
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
  /** GET /v1/outside-alerts?entity_id=: the entity's outside alerts, newest heard first (one page). */
  onEntity: (entityId: string) =>
    queryOptions({
      queryKey: integrationKeys.onEntity(entityId),
      queryFn: async () =>
        (await must(api.GET('/v1/outside-alerts', { params: { query: { entity_id: entityId, limit: 50 } } })))
          .alerts,
    }),
};
