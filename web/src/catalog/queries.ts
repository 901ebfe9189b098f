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
};

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
};

export const relationKeys = {
  all: ['relations'] as const,
  list: () => [...relationKeys.all, 'list'] as const,
  ofEntity: (entityId: string) => [...relationKeys.all, 'entity', entityId] as const,
};

export const relationQueries = {
  /** GET /v1/relations: the tenant's relations. */
  list: () => queryOptions({ queryKey: relationKeys.list(), queryFn: () => must(api.GET('/v1/relations')) }),
  /** GET /v1/relations?entity_id=: an entity's relations, both directions. */
  ofEntity: (entityId: string) =>
    queryOptions({
      queryKey: relationKeys.ofEntity(entityId),
      queryFn: () => must(api.GET('/v1/relations', { params: { query: { entity_id: entityId } } })),
    }),
};

/** The status board's reads (GET /v1/status), refreshed by the live status stream. */
export const statusKeys = {
  all: ['status'] as const,
  counts: () => [...statusKeys.all, 'counts'] as const,
  directory: () => [...statusKeys.all, 'directory'] as const,
  board: (filter: Record<string, string>) => [...statusKeys.all, 'board', filter] as const,
  /** The tenant's entity state changes, newest first (GET /v1/status/transitions). */
  feed: () => [...statusKeys.all, 'transitions'] as const,
};

/** After an entity is created, changed or deleted: its lists, reads, relations and the board. */
export async function entitiesChanged(queryClient: QueryClient, blueprint?: string): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: blueprint ? entityKeys.lists(blueprint) : entityKeys.all }),
    queryClient.invalidateQueries({ queryKey: blueprint ? entityKeys.details(blueprint) : entityKeys.all }),
    queryClient.invalidateQueries({ queryKey: statusKeys.all }),
    queryClient.invalidateQueries({ queryKey: relationKeys.all }),
  ]);
}
