import type { Principal } from '../domain/principal.ts';
import {
  entityNames,
  findChannels,
  findChecks,
  findEntities,
  findIncidents,
  findStatusPages,
  type SearchDeps,
} from './search-kinds.ts';

/** The kinds a search answers, in the order its results come. */
export const SEARCH_KINDS = ['entity', 'check', 'channel', 'incident', 'status_page'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

/** The bounds of the request: the longest text, and results per kind. */
export const SEARCH_LIMITS = { text: 100, perKind: 20, defaultPerKind: 5 } as const;

/** One thing found: what it is, its name, a few words placing it, and the console page that shows it. */
interface SearchResult {
  kind: SearchKind;
  id: string;
  name: string;
  /** Where it belongs: an entity's blueprint, a check's entity and type, a channel's type, an incident's opening. */
  context: string;
  /** Its state (entities, checks, incidents); null for the others. */
  state: string | null;
  /** The console path of its page. */
  path: string;
}

const encode = encodeURIComponent;

/** GET /v1/search: the caller's tenant's entities, checks, shared channels, incidents and status pages matching a text. */
export function createSearchService(deps: SearchDeps) {
  return {
    async search(
      caller: Pick<Principal, 'tenantId'>,
      request: { q: string; limit: number; kind?: SearchKind | undefined },
    ) {
      const { tenantId } = caller;
      const q = request.q.trim();
      const limit = request.limit;
      if (q === '') return { q, results: [] };
      // One kind only (a picker): the others are not read (entities are, for their checks and incidents).
      const wants = (kind: SearchKind) => request.kind === undefined || request.kind === kind;
      const none = Promise.resolve([]);
      const found =
        wants('entity') || wants('check') || wants('incident')
          ? await findEntities(deps, tenantId, q, limit)
          : [];
      const entities = wants('entity') ? found : [];
      const [checks, channels, incidents, pages] = await Promise.all([
        wants('check') ? findChecks(deps, tenantId, q, found, limit) : none,
        wants('channel') ? findChannels(deps, tenantId, q, limit) : none,
        wants('incident') ? findIncidents(deps, tenantId, q, found, limit) : none,
        wants('status_page') ? findStatusPages(deps, tenantId, q, limit) : none,
      ]);
      const names = await entityNames(
        deps,
        tenantId,
        checks.map((c) => c.check.entity_id),
      );
      const results: SearchResult[] = [
        ...entities.map((e) => ({
          kind: 'entity' as const,
          id: e.id,
          name: e.name,
          context: e.blueprint_slug,
          state: e.state,
          path: `/entities/${encode(e.blueprint_slug)}/${encode(e.slug)}`,
        })),
        ...checks.map(({ check, name, state }) => ({
          kind: 'check' as const,
          id: check.id,
          name,
          context: [names.get(check.entity_id), check.check_type].filter(Boolean).join(' · '),
          state,
          path: `/checks/${encode(check.id)}`,
        })),
        ...channels.map((c) => ({
          kind: 'channel' as const,
          id: c.id,
          name: c.name,
          context: c.channel_type,
          state: null,
          path: '/channels',
        })),
        ...incidents.map((i) => ({
          kind: 'incident' as const,
          id: i.id,
          name: i.entity_name,
          context: `opened ${i.opened_at.slice(0, 16).replace('T', ' ')} UTC`,
          state: i.state,
          path: `/incidents/${encode(i.id)}`,
        })),
        ...pages.map((p) => ({
          kind: 'status_page' as const,
          id: p.slug,
          name: p.title,
          context: `/p/${p.slug}`,
          state: null,
          path: '/status-pages',
        })),
      ];
      return { q, results };
    },
  };
}
