import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { api, must } from '../api/client';

/**
 * The notification reads: channels, check policies, routes and the delivery log, each under its
 * own root so a change invalidates one resource by its root.
 */

export const channelKeys = {
  all: ['channels'] as const,
  page: (cursor: string, limit: number) => [...channelKeys.all, 'page', limit, cursor] as const,
  shared: () => [...channelKeys.all, 'shared'] as const,
};

export const policyKeys = {
  all: ['policies'] as const,
  ofCheck: (checkId: string) => [...policyKeys.all, checkId] as const,
};

export const routeKeys = {
  all: ['routes'] as const,
};

export const deliveryKeys = {
  all: ['notify-logs'] as const,
  list: (filter: Record<string, string>) => [...deliveryKeys.all, filter] as const,
};

export const notifyQueries = {
  /** One page of GET /v1/notify/channels (shared channels and the checks' own). */
  channels: (cursor: string | undefined, limit: number) =>
    queryOptions({
      queryKey: channelKeys.page(cursor ?? '', limit),
      queryFn: () =>
        must(api.GET('/v1/notify/channels', { params: { query: { limit, ...(cursor ? { cursor } : {}) } } })),
    }),
  /** GET /v1/checks/{check_id}/policy. */
  policy: (checkId: string) =>
    queryOptions({
      queryKey: policyKeys.ofCheck(checkId),
      queryFn: () =>
        must(api.GET('/v1/checks/{check_id}/policy', { params: { path: { check_id: checkId } } })),
    }),
  /** GET /v1/notify/routes. */
  routes: () => queryOptions({ queryKey: routeKeys.all, queryFn: () => must(api.GET('/v1/notify/routes')) }),
};

/** After a channel is created, changed, attached or deleted: channels, the policies naming them, routes. */
export async function channelsChanged(queryClient: QueryClient): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: channelKeys.all }),
    queryClient.invalidateQueries({ queryKey: policyKeys.all }),
    queryClient.invalidateQueries({ queryKey: routeKeys.all }),
  ]);
}

/** After a delivery is retried or a test sent: the delivery log. */
export async function deliveriesChanged(queryClient: QueryClient): Promise<void> {
  await queryClient.invalidateQueries({ queryKey: deliveryKeys.all });
}
