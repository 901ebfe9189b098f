import { keepPreviousData, type QueryClient, useQuery } from '@tanstack/react-query';
import { api, must, type Schemas } from '../api/client';

/** The status-page reads (GET /v1/status-pages) and what a change makes stale. */

export type StatusPageRecord = Schemas['StatusPage'];

const statusPageKeys = {
  all: ['status-pages'] as const,
  one: (slug: string) => ['status-pages', slug] as const,
};

/** The tenant's public status pages, by slug. */
export function useStatusPages() {
  return useQuery({
    queryKey: statusPageKeys.all,
    queryFn: async () => (await must(api.GET('/v1/status-pages'))).status_pages,
  });
}

/** After a page is created, changed or deleted. */
export async function statusPagesChanged(queryClient: QueryClient): Promise<void> {
  await queryClient.invalidateQueries({ queryKey: statusPageKeys.all });
}

/** A status page's written incidents (GET /v1/status-pages/{slug}/incidents, paged) and their body previews. */

export type PageIncident = Schemas['PageIncident'];

const pageIncidentKeys = {
  all: (slug: string) => ['page-incidents', slug] as const,
  list: (slug: string, cursor: string | undefined) => ['page-incidents', slug, 'list', cursor ?? ''] as const,
  one: (slug: string, id: string) => ['page-incidents', slug, 'one', id] as const,
  open: (slug: string) => ['page-incidents', slug, 'open'] as const,
  /** A body's preview: by page and text (the same text renders the same way). */
  preview: (slug: string, body: string) => ['page-incident-preview', slug, body] as const,
};

/** One status page (its title, and its entities with their names for the impact fields). */
export function useStatusPage(slug: string) {
  return useQuery({
    queryKey: statusPageKeys.one(slug),
    queryFn: () => must(api.GET('/v1/status-pages/{slug}', { params: { path: { slug } } })),
  });
}

/** The page's open incidents, drafts included, newest started first (at most 20: one answer). */
export function useOpenPageIncidents(slug: string) {
  return useQuery({
    queryKey: pageIncidentKeys.open(slug),
    queryFn: () =>
      must(
        api.GET('/v1/status-pages/{slug}/incidents', { params: { path: { slug }, query: { open: 'true' } } }),
      ),
  });
}

/** One page of the page's incidents, newest written first, drafts included. */
export function usePageIncidents(slug: string, cursor: string | undefined) {
  return useQuery({
    queryKey: pageIncidentKeys.list(slug, cursor),
    queryFn: () =>
      must(
        api.GET('/v1/status-pages/{slug}/incidents', {
          params: { path: { slug }, query: cursor ? { cursor } : {} },
        }),
      ),
  });
}

/**
 * A body as the public page will show it, by the server's own renderer
 * (POST /v1/status-pages/{slug}/incidents/preview); off while the body is blank.
 */
export function useIncidentPreview(slug: string, body: string) {
  return useQuery({
    queryKey: pageIncidentKeys.preview(slug, body),
    queryFn: () =>
      must(
        api.POST('/v1/status-pages/{slug}/incidents/preview', { params: { path: { slug } }, body: { body } }),
      ),
    enabled: body.trim() !== '',
    retry: false,
    placeholderData: keepPreviousData,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** After an incident of the page is written, changed or deleted. */
export async function pageIncidentsChanged(queryClient: QueryClient, slug: string): Promise<void> {
  await queryClient.invalidateQueries({ queryKey: pageIncidentKeys.all(slug) });
}

/** One incident of the page, with its updates. */
export function usePageIncident(slug: string, id: string) {
  return useQuery({
    queryKey: pageIncidentKeys.one(slug, id),
    queryFn: () =>
      must(
        api.GET('/v1/status-pages/{slug}/incidents/{incident_id}', {
          params: { path: { slug, incident_id: id } },
        }),
      ),
  });
}
