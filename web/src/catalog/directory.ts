import { useQuery } from '@tanstack/react-query';
import { api, must } from '../api/client';
import { entityQueries, statusKeys } from './queries';

/** The most entities the console reads at once for pickers and the graph (one status page). */
export const DIRECTORY_LIMIT = 1000;

/**
 * The tenant's entities with their states, first DIRECTORY_LIMIT of them (one page of
 * GET /v1/status, never the whole fleet), plus the tenant-wide total. Under the ['status'] key so
 * the live status stream refreshes it.
 */
export function useEntityDirectory() {
  return useQuery({
    queryKey: statusKeys.directory(),
    queryFn: () => must(api.GET('/v1/status', { params: { query: { limit: DIRECTORY_LIMIT } } })),
  });
}

export type DirectoryEntity = NonNullable<ReturnType<typeof useEntityDirectory>['data']>['entities'][number];

/** An entity as pickers and lists name it: its name and where it lives. */
export function entityLabel(e: { name: string; blueprint_slug: string; slug: string }): string {
  return `${e.name} (${e.blueprint_slug}/${e.slug})`;
}

/** One entity by its address (GET /v1/blueprints/{blueprint_slug}/entities/{slug}). */
export function useEntity(blueprintSlug: string, slug: string) {
  return useQuery(entityQueries.detail(blueprintSlug, slug));
}
