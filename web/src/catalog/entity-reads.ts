import { useQuery } from '@tanstack/react-query';
import { entityQueries } from './queries';

/**
 * Entities as pages name and read them. There is no tenant-wide entity directory: answers carry
 * the names of the entities they mention, and pickers search the server (entity-search-field.tsx).
 */

/** An entity as pickers and lists name it: its name and where it lives. */
export function entityLabel(e: { name: string; blueprint_slug: string; slug: string }): string {
  return `${e.name} (${e.blueprint_slug}/${e.slug})`;
}

/** One entity by its address (GET /v1/blueprints/{blueprint_slug}/entities/{slug}). */
export function useEntity(blueprintSlug: string, slug: string) {
  return useQuery(entityQueries.detail(blueprintSlug, slug));
}
