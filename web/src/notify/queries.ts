import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { api, must, type Schemas } from '../api/client';
import { statusKeys } from '../catalog/queries';

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

export const templateKeys = {
  /** A template's preview (POST /v1/notify/template-preview): by type and template. */
  preview: (channelType: string, template: unknown) => ['template-preview', channelType, template] as const,
};

const deliveryKeys = {
  all: ['notify-logs'] as const,
  list: (filter: Record<string, string>) => [...deliveryKeys.all, filter] as const,
  /** What each channel was told of an entity (a new delivery changes it; so does the entity's state). */
  told: (entityId: string, state: string) => [...deliveryKeys.all, 'told', entityId, state] as const,
};

/** The delivery log's filters (each may be empty: no filter). */
export interface DeliveryFilter {
  check_id: string;
  channel_id: string;
  entity_id: string;
  status: '' | Schemas['Delivery']['status'];
}

/** Entities a picker lists of one blueprint (the board's page bound). */
export const PICKER_LIMIT = 200;

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
  /** The alerts folded into a digest (GET /v1/notify/logs?batch_id=&status=folded, on its channel). */
  digestAlerts: (batchId: string, channelId: string) =>
    queryOptions({
      queryKey: deliveryKeys.list({ batch_id: batchId, channel_id: channelId, status: 'folded' }),
      queryFn: () =>
        must(
          api.GET('/v1/notify/logs', {
            params: { query: { limit: 200, batch_id: batchId, channel_id: channelId, status: 'folded' } },
          }),
        ),
    }),
  /** One page of the delivery log (GET /v1/notify/logs) with its filters, as the URL gives them. */
  deliveries: (filter: DeliveryFilter, cursor: string | undefined) =>
    queryOptions({
      queryKey: deliveryKeys.list({ ...filter, cursor: cursor ?? '' }),
      queryFn: () =>
        must(
          api.GET('/v1/notify/logs', {
            params: {
              query: {
                limit: 50,
                ...(filter.check_id ? { check_id: filter.check_id } : {}),
                ...(filter.channel_id ? { channel_id: filter.channel_id } : {}),
                ...(filter.entity_id ? { entity_id: filter.entity_id } : {}),
                ...(filter.status ? { status: filter.status } : {}),
                ...(cursor ? { cursor } : {}),
              },
            },
          }),
        ),
    }),
  /**
   * A blueprint's entities for a picker: the first page of GET /v1/status filtered by blueprint
   * (the server has no text search of entities yet), under the board's key so the stream refreshes it.
   */
  entitiesOf: (blueprint: string) =>
    queryOptions({
      queryKey: statusKeys.board({ blueprint_slug: blueprint, limit: String(PICKER_LIMIT) }),
      queryFn: () =>
        must(
          api.GET('/v1/status', { params: { query: { blueprint_slug: blueprint, limit: PICKER_LIMIT } } }),
        ),
      enabled: blueprint !== '',
    }),
  /** Each channel's last word about the entity and what holds the truth back (POST /v1/notify/simulate without to_state: it sends nothing). */
  told: (entityId: string, state: string) =>
    queryOptions({
      queryKey: deliveryKeys.told(entityId, state),
      queryFn: () => must(api.POST('/v1/notify/simulate', { body: { entity_id: entityId } })),
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
