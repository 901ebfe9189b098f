import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { actionQueries } from '../actions/queries';
import { api, must } from '../api/client';
import { useSession } from '../session';
import { settingsQueries } from '../settings/queries';
import type { Incident } from './words';

/**
 * The incident reads the pages share. All live under the ['incidents'] key, so an acknowledgement
 * or a note refreshes every list and detail at once. Incidents open and resolve from the change
 * feed a moment after the state change the status stream announces, so unresolved lists read
 * again on their own every UNRESOLVED_REFRESH_MS rather than racing the stream.
 */

export const UNRESOLVED_REFRESH_MS = 10_000;

export interface IncidentFilter {
  state?: Incident['state'];
  entity_id?: string;
  cursor?: string | undefined;
  limit: number;
}

export const incidentKeys = {
  all: ['incidents'] as const,
  lists: () => [...incidentKeys.all, 'list'] as const,
  list: (filter: Omit<IncidentFilter, 'cursor'> & { cursor: string }) =>
    [...incidentKeys.lists(), filter] as const,
  detail: (id: string) => [...incidentKeys.all, 'detail', id] as const,
};

const incidentQueries = {
  /** One page of GET /v1/incidents, newest first. */
  list: (filter: IncidentFilter) => {
    const { cursor, ...rest } = filter;
    return queryOptions({
      queryKey: incidentKeys.list({ ...rest, cursor: cursor ?? '' }),
      queryFn: () =>
        must(api.GET('/v1/incidents', { params: { query: { ...rest, ...(cursor ? { cursor } : {}) } } })),
    });
  },
  /** One incident with its timeline. */
  detail: (id: string) =>
    queryOptions({
      queryKey: incidentKeys.detail(id),
      queryFn: () => must(api.GET('/v1/incidents/{incident_id}', { params: { path: { incident_id: id } } })),
    }),
};

/** One page of GET /v1/incidents, newest first. */
export function useIncidentList(filter: IncidentFilter, refreshMs: number | false = false) {
  return useQuery({ ...incidentQueries.list(filter), refetchInterval: refreshMs });
}

/** One incident with its timeline; read again while it is unresolved. */
export function useIncident(id: string) {
  return useQuery({
    ...incidentQueries.detail(id),
    refetchInterval: (q) => (q.state.data?.state === 'resolved' ? false : UNRESOLVED_REFRESH_MS),
  });
}

/** After an acknowledgement, a note or a resolution: every incident list and detail. */
export async function incidentsChanged(queryClient: QueryClient): Promise<void> {
  await queryClient.invalidateQueries({ queryKey: incidentKeys.all });
}

/**
 * Where an incident's entity's page is: incidents carry the entity's blueprint and slug (no
 * directory of the tenant's entities is read); undefined once the entity is gone (named, not linked).
 */
export function entityPageOf(incident: {
  blueprint_slug: string | null;
  entity_slug: string | null;
}): string | undefined {
  const { blueprint_slug: bp, entity_slug: slug } = incident;
  return bp && slug ? `/entities/${encodeURIComponent(bp)}/${encodeURIComponent(slug)}` : undefined;
}

/**
 * Who a user id is, for "acknowledged by": "you" for the signed-in user, else the team member's
 * name or e-mail. The team list is not for read-only keys (personal data), so they see the id.
 */
export function useUserNames(): (id: string) => string {
  const session = useSession();
  const team = useQuery({
    ...settingsQueries.users(),
    enabled: session.canWrite,
  });
  const names = new Map(
    (team.data ?? []).flatMap((m) => (m.status === 'active' ? [[m.id, m.name || m.email] as const] : [])),
  );
  const me = session.me.user?.id;
  return (id) => (id === me ? 'you' : (names.get(id) ?? id));
}

/** The tenant's action names by id, for the timeline's action runs. */
export function useActionNames(): Map<string, string> {
  const actions = useQuery(actionQueries.list());
  return new Map((actions.data ?? []).map((a) => [a.id, a.name]));
}
