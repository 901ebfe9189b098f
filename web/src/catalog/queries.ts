import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { api, must } from '../api/client';

/**
 * The catalog's reads: blueprints, entities, relations and the status board. Keys follow TanStack
 * Query's factory convention (one root per resource, narrower keys under it), so a change
 * invalidates a resource by its root and every list and detail of it reads again.
 */

export const blueprintKeys = {
  all: ['blueprints'] as const,
  list: () => [...blueprintKeys.all, 'list'] as const,
  detail: (slug: string) => [...blueprintKeys.all, 'detail', slug] as const,
};

export const blueprintQueries = {
  /** GET /v1/blueprints. */
  list: () =>
    queryOptions({ queryKey: blueprintKeys.list(), queryFn: () => must(api.GET('/v1/blueprints')) }),
  /** GET /v1/blueprints/{slug}. */
  detail: (slug: string) =>
    queryOptions({
      queryKey: blueprintKeys.detail(slug),
      queryFn: () => must(api.GET('/v1/blueprints/{slug}', { params: { path: { slug } } })),
    }),
};

export const entityKeys = {
  all: ['entities'] as const,
  /** Every list of a blueprint's entities (whatever the filter). */
  lists: (blueprint: string) => [...entityKeys.all, 'list', blueprint] as const,
  /** Every entity of a blueprint read by address. */
  details: (blueprint: string) => [...entityKeys.all, 'detail', blueprint] as const,
  detail: (blueprint: string, slug: string) => [...entityKeys.details(blueprint), slug] as const,
  /** Every page of GET /v1/entities (the catalog's list, pickers' searches). */
  searches: () => [...entityKeys.all, 'search'] as const,
  search: (filter: EntitySearch) => [...entityKeys.searches(), filter] as const,
};

/** What GET /v1/entities filters and pages by. */
export interface EntitySearch {
  q?: string | undefined;
  blueprint_slug?: string | undefined;
  limit?: number | undefined;
  cursor?: string | undefined;
}

/** Only the filters that are set (an empty text is no filter). */
const given = (filter: EntitySearch) =>
  Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined && v !== ''));

export const entityQueries = {
  /** GET /v1/blueprints/{blueprint_slug}/entities: a blueprint's entities. */
  list: (blueprint: string) =>
    queryOptions({
      queryKey: entityKeys.lists(blueprint),
      queryFn: () =>
        must(
          api.GET('/v1/blueprints/{blueprint_slug}/entities', {
            params: { path: { blueprint_slug: blueprint } },
          }),
        ),
      enabled: blueprint !== '',
    }),
  /** One entity by its address (GET /v1/blueprints/{blueprint_slug}/entities/{slug}). */
  detail: (blueprint: string, slug: string) =>
    queryOptions({
      queryKey: entityKeys.detail(blueprint, slug),
      queryFn: () =>
        must(
          api.GET('/v1/blueprints/{blueprint_slug}/entities/{slug}', {
            params: { path: { blueprint_slug: blueprint, slug } },
          }),
        ),
    }),
  /** GET /v1/entities: one page of the tenant's entities, by name or slug prefix and blueprint (server-side). */
  search: (filter: EntitySearch) =>
    queryOptions({
      queryKey: entityKeys.search(given(filter)),
      queryFn: () => must(api.GET('/v1/entities', { params: { query: given(filter) } })),
    }),
};

export const relationKeys = {
  all: ['relations'] as const,
  list: () => [...relationKeys.all, 'list'] as const,
  ofEntity: (entityId: string) => [...relationKeys.all, 'entity', entityId] as const,
  graph: (filter: RelationGraphFilter) => [...relationKeys.all, 'graph', filter] as const,
  ofBlueprint: (blueprint: string) => [...relationKeys.all, 'blueprint', blueprint] as const,
  dependents: (entityId: string) => [...relationKeys.all, 'dependents', entityId] as const,
};

/** The depends_on relations the graph draws: one entity's neighbourhood, or one blueprint's. */
export interface RelationGraphFilter {
  entity_id?: string | undefined;
  hops?: number | undefined;
  blueprint_slug?: string | undefined;
}

export const relationQueries = {
  /** GET /v1/relations: the tenant's relations. */
  list: () => queryOptions({ queryKey: relationKeys.list(), queryFn: () => must(api.GET('/v1/relations')) }),
  /** GET /v1/relations?entity_id=: an entity's relations, both directions. */
  ofEntity: (entityId: string) =>
    queryOptions({
      queryKey: relationKeys.ofEntity(entityId),
      queryFn: () => must(api.GET('/v1/relations', { params: { query: { entity_id: entityId } } })),
    }),
  /** GET /v1/relations?dependents_of=: the depends_on relations of an entity's blast radius. */
  dependents: (entityId: string) =>
    queryOptions({
      queryKey: relationKeys.dependents(entityId),
      queryFn: () => must(api.GET('/v1/relations', { params: { query: { dependents_of: entityId } } })),
      enabled: entityId !== '',
    }),
  /** GET /v1/relations?blueprint_slug=: the relations with an end in one blueprint. */
  ofBlueprint: (blueprint: string) =>
    queryOptions({
      queryKey: relationKeys.ofBlueprint(blueprint),
      queryFn: () => must(api.GET('/v1/relations', { params: { query: { blueprint_slug: blueprint } } })),
      enabled: blueprint !== '',
    }),
  /** GET /v1/relations?relation_type=depends_on with a neighbourhood or blueprint filter: the graph. */
  graph: (filter: RelationGraphFilter) =>
    queryOptions({
      queryKey: relationKeys.graph(given(filter)),
      queryFn: () =>
        must(
          api.GET('/v1/relations', { params: { query: { ...given(filter), relation_type: 'depends_on' } } }),
        ),
      enabled: Boolean(filter.entity_id || filter.blueprint_slug),
    }),
};

/** The status board's reads (GET /v1/status), refreshed by the live status stream. */
export const statusKeys = {
  all: ['status'] as const,
  counts: () => [...statusKeys.all, 'counts'] as const,
  board: (filter: Record<string, string>) => [...statusKeys.all, 'board', filter] as const,
  /** The tenant's entity state changes, newest first (GET /v1/status/transitions). */
  feed: () => [...statusKeys.all, 'transitions'] as const,
  /** The feed with or without first results (`first_results`, docs/api.md). */
  feedOf: (firstResults: 'include' | 'exclude') => [...statusKeys.feed(), firstResults] as const,
};

export const statusQueries = {
  /** GET /v1/status?limit=1: the tenant's counts by state and its entity total. */
  counts: () =>
    queryOptions({
      queryKey: statusKeys.counts(),
      queryFn: () => must(api.GET('/v1/status', { params: { query: { limit: 1 } } })),
    }),
};

/** After an entity is created, changed or deleted: its lists, reads, relations, the board and the blueprints' counts. */
export async function entitiesChanged(queryClient: QueryClient, blueprint?: string): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: blueprintKeys.list() }),
    queryClient.invalidateQueries({ queryKey: blueprint ? entityKeys.lists(blueprint) : entityKeys.all }),
    queryClient.invalidateQueries({ queryKey: blueprint ? entityKeys.details(blueprint) : entityKeys.all }),
    queryClient.invalidateQueries({ queryKey: entityKeys.searches() }),
    queryClient.invalidateQueries({ queryKey: statusKeys.all }),
    queryClient.invalidateQueries({ queryKey: relationKeys.all }),
  ]);
}
