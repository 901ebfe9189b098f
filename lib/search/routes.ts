import * as z from 'zod';
import { defineRoute } from '../http/define-route.ts';
import { queryInteger } from '../http/route-schemas.ts';
import { type AuthedRoute, ok } from '../http/types.ts';
import type { SearchDeps } from './search-kinds.ts';
import { createSearchService, SEARCH_KINDS, SEARCH_LIMITS } from './search-service.ts';

const searchQuery = z.object({
  q: z
    .string()
    .trim()
    .max(SEARCH_LIMITS.text)
    .default('')
    .meta({
      description: `The text: at most ${SEARCH_LIMITS.text} characters (or an ent_, chk_ or inc_ id); empty finds nothing`,
    }),
  kind: z.enum(SEARCH_KINDS).optional().meta({ description: 'Only results of this kind' }),
  limit: queryInteger(1, SEARCH_LIMITS.perKind)
    .default(SEARCH_LIMITS.defaultPerKind)
    .meta({
      description: `Results per kind: an integer from 1 to ${SEARCH_LIMITS.perKind}; default ${SEARCH_LIMITS.defaultPerKind}`,
    }),
});

const resultSchema = z
  .strictObject({
    kind: z.enum(SEARCH_KINDS),
    id: z.string().meta({ description: 'The id (a status page: its slug)' }),
    name: z.string().meta({ description: 'Its name (an incident: its entity’s)' }),
    context: z.string().meta({
      description:
        'Where it belongs: an entity’s blueprint, a check’s entity and type, a channel’s type, when an incident opened, a status page’s public path',
    }),
    state: z
      .string()
      .nullable()
      .meta({ description: 'Entities, checks and incidents: the state; else null' }),
    path: z.string().meta({ description: 'The console page that shows it' }),
  })
  .meta({ id: 'SearchResult' });

/** GET /v1/search (docs/api.md "Search"). */
export function searchRoutes(deps: SearchDeps): AuthedRoute[] {
  const search = createSearchService(deps);
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/search',
      auth: 'key',
      operationId: 'search',
      // It reads several lists of the tenant (bounded): one of the per-tenant bounded reads.
      expensive: true,
      tag: 'Search',
      summary:
        'Entities (name or slug starting with q), checks, shared channels, incidents and status pages (containing q): {q, results}, grouped by kind',
      schemas: {
        query: searchQuery,
        responses: { 200: z.strictObject({ q: z.string(), results: z.array(resultSchema) }) },
      },
      handler: async ({ principal, query }) => ok(await search.search(principal, query)),
    }),
  ];
}
