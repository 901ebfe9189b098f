import type { EntityState, ToolKitDeps } from '../catalog/entities.ts';
import { STATES } from '../catalog/entities.ts';
import type { EntitySearch } from '../catalog/services.ts';
import { ValidationError } from '../platform/errors.ts';
import type { BuiltinTool } from '../platform/mcp-tool.ts';
import { cursor, optionalString, pageLimit, positiveInt, READS } from '../platform/mcp-tool.ts';
import {
  asToolResult,
  decodeListCursor,
  encodeListCursor,
  entityWithState,
  type PagedList,
  readLists,
  someOf,
  toolResult,
} from '../platform/tool-answers.ts';
import type { BoardReads } from '../status/board-reads.ts';

/** search_entities' services, bound by the search mount (lib/features/feature-routes.ts). */
export interface SearchToolDeps extends ToolKitDeps, Pick<BoardReads, 'status'> {
  /** The entity search indexes. */
  search: EntitySearch;
}

/**
 * search_entities: entities by name or slug prefix (case-insensitive), state and blueprint,
 * paged. What a call reads depends on what it is given:
 * - `prefix`: the id pointers' name index from the prefix on, then their slug index from the prefix
 *   on (an entity found by its name is not repeated by its slug), filtered by blueprint and state;
 *   at most 2,000 index entries per call, and the entity items of the page (or, with `state`,
 *   of the entries that pass the other filters) batch-read for their state
 *   (lib/catalog/entities/entity-search.ts);
 * - `state` without prefix: the status board's index of that state (of that blueprint, with one);
 * - neither: the tenant's entity items (of the blueprint, with one), by blueprint and slug.
 * Never the whole fleet for one page; each answer stays under 50 KB (paging.ts).
 */

const SEARCH_LIMITS = { defaultLimit: 50, maxLimit: 200, maxPrefix: 200 } as const;

type State = EntityState['state'];
type Found = Pick<EntityState, 'id' | 'blueprint_slug' | 'slug' | 'name' | 'state'>;

const found = (e: Found): Found => ({
  id: e.id,
  blueprint_slug: e.blueprint_slug,
  slug: e.slug,
  name: e.name,
  state: e.state,
});

/** The lists a search reads, in order (see the module comment). */
function searchLists(
  deps: SearchToolDeps,
  tenantId: string,
  filter: { prefix?: string | undefined; state?: State | undefined; blueprint_slug?: string | undefined },
): PagedList<Found>[] {
  const { prefix, state, blueprint_slug } = filter;
  if (prefix === undefined) {
    return [
      {
        async read(limit, cursor) {
          const board = await deps.status.board(tenantId, {
            limit,
            ...(state ? { state } : {}),
            ...(blueprint_slug ? { blueprint_slug } : {}),
            ...(cursor ? { cursor } : {}),
          });
          return { items: board.entities.map(found), next_cursor: board.next_cursor };
        },
      },
    ];
  }
  const lower = prefix.toLowerCase();
  const byName = (entity: { name: string }) => entity.name.toLowerCase().startsWith(lower);
  return (['name', 'slug'] as const).map((by) => ({
    async read(limit, cursor) {
      const page = await deps.search.page(
        tenantId,
        by,
        lower,
        { state, blueprint_slug, ...(by === 'slug' ? { skip: byName } : {}) },
        { limit, ...(cursor ? { cursor } : {}) },
      );
      return { items: page.entities.map(found), next_cursor: page.next_cursor };
    },
  }));
}

export const searchEntities: BuiltinTool<SearchToolDeps> = {
  name: 'search_entities',
  offer: {
    toolset: 'catalog-ops',
    order: 110,
    version: '2.2.0',
    description:
      'Entities whose name or slug starts with prefix (case-insensitive), in a state, of a blueprint; paged (next_cursor continues).',
    inputSchema: {
      type: 'object',
      properties: {
        prefix: { type: 'string', minLength: 1, maxLength: 200, description: 'Start of the name or slug' },
        state: {
          type: 'string',
          enum: ['up', 'degraded', 'down', 'unknown'],
          description: 'Only this state',
        },
        blueprint_slug: { type: 'string', description: 'Only entities of this blueprint' },
        limit: pageLimit(50, 200),
        cursor,
      },
      additionalProperties: false,
    },
  },
  annotations: { title: 'Search entities', ...READS },
  handler: (deps, caller, args) =>
    asToolResult(async () => {
      const prefix = optionalString(args, 'prefix');
      if (prefix !== undefined && prefix.length > SEARCH_LIMITS.maxPrefix)
        throw ValidationError.field('prefix', `Use at most ${SEARCH_LIMITS.maxPrefix} characters.`);
      const state = optionalString(args, 'state') as State | undefined;
      if (state !== undefined && !STATES.includes(state))
        throw ValidationError.field('state', `one of ${STATES.join(', ')}`);
      const blueprintSlug = optionalString(args, 'blueprint_slug');
      const limit = positiveInt(args, 'limit', SEARCH_LIMITS.defaultLimit, SEARCH_LIMITS.maxLimit);
      const filter = { prefix, state, blueprint_slug: blueprintSlug };
      const lists = searchLists(deps, caller.tenantId, filter);
      const page = await readLists(
        lists,
        decodeListCursor(optionalString(args, 'cursor'), lists.length),
        limit,
      );
      const what = [
        prefix !== undefined ? `name or slug starting with "${prefix}"` : undefined,
        state ? `state ${state}` : undefined,
        blueprintSlug ? `blueprint ${blueprintSlug}` : undefined,
      ].filter(Boolean);
      const summary =
        `${page.items.length} entities${what.length ? ` (${what.join(', ')})` : ''}` +
        `${page.items.length ? `: ${someOf(page.items.map(entityWithState), 5)}` : ''}` +
        `${page.next ? '; more: pass next_cursor as cursor' : ''}.`;
      return toolResult(
        summary,
        {
          prefix: prefix ?? null,
          state: state ?? null,
          blueprint_slug: blueprintSlug ?? null,
          entities: page.items,
          next_cursor: page.next ? encodeListCursor(page.next) : null,
        },
        { compact: true },
      );
    }),
};
