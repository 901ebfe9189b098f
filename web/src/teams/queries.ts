import { queryOptions } from '@tanstack/react-query';
import { api, must } from '../api/client';

/** Who is on call (GET /v1/oncall): under ['oncall'], one key per entity asked about. */

const onCallKeys = {
  all: ['oncall'] as const,
  entity: (entityId: string) => [...onCallKeys.all, 'entity', entityId] as const,
};

/** Read again every minute: a handoff changes the answer without any write. */
const ON_CALL_REFRESH_MS = 60_000;

export const onCallQueries = {
  /** Who is on call now for an entity: its owning teams, their schedules, the people. */
  entity: (entityId: string) =>
    queryOptions({
      queryKey: onCallKeys.entity(entityId),
      queryFn: () => must(api.GET('/v1/oncall', { params: { query: { entity_id: entityId } } })),
      refetchInterval: ON_CALL_REFRESH_MS,
    }),
};
