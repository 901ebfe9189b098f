import { useQuery } from '@tanstack/react-query';
import { api, must } from '../api/client';
import { useEntityDirectory } from '../catalog/directory';
import { useSession } from '../session';
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

/** One page of GET /v1/incidents, newest first. */
export function useIncidentList(filter: IncidentFilter, refreshMs: number | false = false) {
  const { cursor, ...rest } = filter;
  return useQuery({
    queryKey: ['incidents', 'list', { ...rest, cursor: cursor ?? '' }],
    queryFn: () =>
      must(api.GET('/v1/incidents', { params: { query: { ...rest, ...(cursor ? { cursor } : {}) } } })),
    refetchInterval: refreshMs,
  });
}

/** One incident with its timeline; read again while it is unresolved. */
export function useIncident(id: string) {
  return useQuery({
    queryKey: ['incidents', 'detail', id],
    queryFn: () => must(api.GET('/v1/incidents/{incident_id}', { params: { path: { incident_id: id } } })),
    refetchInterval: (q) => (q.state.data?.state === 'resolved' ? false : UNRESOLVED_REFRESH_MS),
  });
}

/**
 * Where an entity's page is, by entity id: incidents carry the id and name only. Read from the
 * shared entity directory (one bounded status page); an entity past it is named without a link.
 */
export function useEntityAddresses(): Map<string, string> {
  const directory = useEntityDirectory();
  return new Map(
    (directory.data?.entities ?? []).map((e) => [e.id, `/entities/${e.blueprint_slug}/${e.slug}`]),
  );
}

/**
 * Who a user id is, for "acknowledged by": "you" for the signed-in user, else the team member's
 * name or e-mail. The team list is not for read-only keys (personal data), so they see the id.
 */
export function useUserNames(): (id: string) => string {
  const session = useSession();
  const team = useQuery({
    queryKey: ['users'],
    queryFn: () => must(api.GET('/v1/settings/users')),
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
  const actions = useQuery({ queryKey: ['actions'], queryFn: () => must(api.GET('/v1/actions')) });
  return new Map((actions.data ?? []).map((a) => [a.id, a.name]));
}
