import { infiniteQueryOptions, type QueryClient, queryOptions } from '@tanstack/react-query';
import { api, must } from '../api/client';
import { nextCursor } from '../api/link-header';
import type { CheckType } from './check-types/form';

/**
 * The check reads. Everything about a check lives under the ['checks'] root (lists, one check,
 * its results, sparkline and transitions), so a state change or an edit refreshes them by that
 * root. Ping URLs have their own root: no state change makes them stale.
 */

export const checkKeys = {
  all: ['checks'] as const,
  lists: () => [...checkKeys.all, 'list'] as const,
  list: (filter: Record<string, string>) => [...checkKeys.lists(), filter] as const,
  /** The paged list (an infinite query: its data is pages, not a list). */
  pages: (filter: Record<string, string>) => [...checkKeys.lists(), 'pages', filter] as const,
  detail: (id: string) => [...checkKeys.all, 'detail', id] as const,
  /** Everything read about one check's results (pages of results, sparklines). */
  results: (id: string) => [...checkKeys.all, 'results', id] as const,
  resultsPage: (id: string, cursor: string, until = '') =>
    [...checkKeys.results(id), 'page', cursor, until] as const,
  /** The newest `limit` results (the per-location chart). */
  latest: (id: string, limit: number) => [...checkKeys.results(id), 'latest', limit] as const,
  sparkline: (id: string, hours: number, buckets: number) =>
    [...checkKeys.results(id), 'sparkline', hours, buckets] as const,
  transitions: (id: string) => [...checkKeys.all, 'transitions', id] as const,
  pushTokens: (id: string) => ['push-tokens', id] as const,
  /** One stored screenshot of a result: its own root, as it never changes (a state change refreshes no image). */
  artifact: (id: string, resultId: string, name: string) => ['artifacts', id, resultId, name] as const,
};

/** The filters of the checks list, as the URL and GET /v1/checks name them (empty: not filtered). */
export interface CheckListFilter {
  blueprint?: string;
  entity_id?: string;
  type?: CheckType;
  state?: 'up' | 'down' | 'degraded' | 'unknown';
  q?: string;
}

/** Checks read per page of the checks list (the API's `limit`). */
export const CHECKS_PAGE = 100;

export const checkQueries = {
  /**
   * The checks list: pages of GET /v1/checks filtered on the server, each check with its last
   * results and 24 h uptime (include=recent); the next page's cursor from the Link header.
   */
  pages: (filter: CheckListFilter) =>
    infiniteQueryOptions({
      queryKey: checkKeys.pages(filter as Record<string, string>),
      initialPageParam: undefined as string | undefined,
      queryFn: async ({ pageParam }) => {
        const call = api.GET('/v1/checks', {
          params: {
            query: {
              ...filter,
              include: 'recent',
              limit: CHECKS_PAGE,
              ...(pageParam ? { cursor: pageParam } : {}),
            },
          },
        });
        const checks = await must(call);
        const { response } = await call;
        return { checks, next: nextCursor(response.headers.get('link')) };
      },
      getNextPageParam: (last) => last.next,
    }),
  /** GET /v1/checks, whole (for name lookups and pickers), or an entity's checks. */
  list: (filter: { entity_id?: string } = {}) =>
    queryOptions({
      queryKey: checkKeys.list(filter as Record<string, string>),
      queryFn: () => must(api.GET('/v1/checks', { params: { query: filter } })),
    }),
  /** GET /v1/checks/{id}. */
  detail: (id: string) =>
    queryOptions({
      queryKey: checkKeys.detail(id),
      queryFn: () => must(api.GET('/v1/checks/{id}', { params: { path: { id } } })),
    }),
  /** One page of GET /v1/checks/{id}/results, newest first (at or before `until`, when given). */
  results: (id: string, cursor: string | undefined, limit: number, until?: string) =>
    queryOptions({
      queryKey: checkKeys.resultsPage(id, cursor ?? '', until),
      queryFn: () =>
        must(
          api.GET('/v1/checks/{id}/results', {
            params: {
              path: { id },
              query: { limit, ...(cursor ? { cursor } : {}), ...(until ? { until } : {}) },
            },
          }),
        ),
    }),
  /** The newest `limit` results of GET /v1/checks/{id}/results (one page, no cursor). */
  latest: (id: string, limit: number) =>
    queryOptions({
      queryKey: checkKeys.latest(id, limit),
      queryFn: () => must(api.GET('/v1/checks/{id}/results', { params: { path: { id }, query: { limit } } })),
    }),
  /** GET /v1/checks/{id}/sparkline. */
  sparkline: (id: string, hours: number, buckets: number) =>
    queryOptions({
      queryKey: checkKeys.sparkline(id, hours, buckets),
      queryFn: () =>
        must(api.GET('/v1/checks/{id}/sparkline', { params: { path: { id }, query: { hours, buckets } } })),
    }),
  /** The newest `limit` state changes of a check (GET /v1/checks/{id}/transitions). */
  transitions: (id: string, limit: number) =>
    queryOptions({
      queryKey: checkKeys.transitions(id),
      queryFn: () =>
        must(api.GET('/v1/checks/{id}/transitions', { params: { path: { id }, query: { limit } } })),
    }),
  /**
   * GET /v1/checks/{id}/results/{result_id}/artifacts/{name} as a data: URL. Read with the console's
   * client, since an <img src> cannot carry a key session's Authorization header; a data: URL, since
   * the console's CSP allows images from 'self' and data: only.
   */
  artifact: (id: string, resultId: string, name: string) =>
    queryOptions({
      queryKey: checkKeys.artifact(id, resultId, name),
      staleTime: Number.POSITIVE_INFINITY,
      queryFn: async () => dataUrlOf(await readArtifact(id, resultId, name)),
    }),
  /** GET /v1/checks/{id}/push-tokens: the ping URLs by prefix. */
  pushTokens: (id: string) =>
    queryOptions({
      queryKey: checkKeys.pushTokens(id),
      queryFn: () => must(api.GET('/v1/checks/{id}/push-tokens', { params: { path: { id } } })),
    }),
};

/** GET /v1/checks/{id}/results/{result_id}/artifacts/{name}: a stored artifact's bytes, read with the console's credential. */
export function readArtifact(id: string, resultId: string, name: string): Promise<Blob> {
  return must(
    api.GET('/v1/checks/{id}/results/{result_id}/artifacts/{name}', {
      params: { path: { id, result_id: resultId, name } },
      parseAs: 'blob',
    }),
  );
}

/** A blob as a data: URL (the console's CSP allows no blob: images). */
function dataUrlOf(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('the screenshot could not be read'));
    reader.readAsDataURL(blob);
  });
}

/** After a check is created, changed or deleted: every check read. */
export async function checksChanged(queryClient: QueryClient): Promise<void> {
  await queryClient.invalidateQueries({ queryKey: checkKeys.all });
}
