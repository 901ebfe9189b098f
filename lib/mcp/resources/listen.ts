import { createMcpHandler, InMemoryServerEventBus, type Server } from '@modelcontextprotocol/server';
import * as z from 'zod';
import type { Principal } from '../../domain/principal.ts';
import type { Logger } from '../../platform/logger.ts';
import type { FollowChanges } from '../../status/stream-follow.ts';
import type { LiveChange } from '../../status/stream-hub.ts';
import { STREAM_RETRY_AFTER_SECONDS, type StreamSlots } from '../../streams/stream-slots.ts';
import { jsonRpcErrorResponse } from '../json-rpc.ts';
import type { ResourceDeps } from './reader.ts';
import { isSubscribable, parseResourceUri, resourceUri } from './uris.ts';

/** At most this many resources on one `subscriptions/listen` stream. */
const MAX_LISTEN_RESOURCES = 100;

export interface ListenDeps {
  resources: Pick<ResourceDeps, 'incidents'>;
  /** The console live stream's follower of entity transitions and incident changes (lib/status/stream-follow.ts). */
  follow: FollowChanges;
  /** Open streams per key and per tenant, a kind of their own (`mcp_listen`). */
  slots: StreamSlots;
  /** The server a stream's acknowledgement is made by (its capabilities narrow the filter). */
  serverFor: (caller: Principal) => Server;
  /** A stream ends (gracefully, the spec's empty result) after this long; the client listens again. */
  maxDurationMs: number;
  keepAliveMs?: number;
  logger: Logger;
}

/** The one request a listen POST is: id and the filter's resources, checked before the SDK reads it. */
const listenBody = z.object({
  id: z.union([z.string().max(128), z.number()]),
  params: z.object({
    notifications: z.object({
      resourceSubscriptions: z.array(z.string()).max(MAX_LISTEN_RESOURCES).optional(),
    }),
  }),
});

const rpcError = (id: string | number | null, code: number, message: string, status = 200) =>
  new Response(JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } }), {
    status,
    headers: { 'content-type': 'application/json' },
  });

/**
 * `subscriptions/listen` (2026-07-28): a stream per request, served by the SDK's listen router over
 * a bus of its own that only this caller's tenant's changes reach (a URI names no tenant, so
 * streams never share a bus). An entity transition tells `notifications/resources/updated` for its
 * entity's URI and for every subscribed incident of that entity; an incident acknowledged, noted
 * or resolved by hand or by its entity's deletion tells its own URI (the SDK's router passes on
 * only what the stream subscribed to). The stream holds one slot of
 * the key's and the tenant's stream caps, and ends after `maxDurationMs` (a Lambda's timeout).
 */
export function createListenEndpoint(deps: ListenDeps) {
  return async (caller: Principal, request: Request): Promise<Response> => {
    const parsed = listenBody.safeParse(
      await request
        .clone()
        .json()
        .catch(() => undefined),
    );
    if (!parsed.success)
      return rpcError(null, -32602, `Invalid params: at most ${MAX_LISTEN_RESOURCES} resource subscriptions`);
    const { id } = parsed.data;
    const uris = parsed.data.params.notifications.resourceSubscriptions ?? [];
    const addresses = uris.map((uri) => ({ uri, address: parseResourceUri(uri) }));
    const refused = addresses.find((a) => a.address === undefined || !isSubscribable(a.address));
    if (refused)
      return rpcError(
        id,
        -32602,
        'Invalid params: only vigil://entities/… and vigil://incidents/… can be subscribed to',
      );

    // The subscribed incidents' entities (the caller's tenant's; another's is not found and never told).
    const incidentsOf = new Map<string, string[]>();
    for (const { uri, address } of addresses) {
      if (address?.kind !== 'incident') continue;
      const incident = await deps.resources.incidents.get(caller, address.id).catch(() => undefined);
      if (incident)
        incidentsOf.set(incident.entity_id, [...(incidentsOf.get(incident.entity_id) ?? []), uri]);
    }

    const answer = await deps.slots.acquire('mcp_listen', caller);
    if ('refused' in answer)
      return jsonRpcErrorResponse(
        429,
        -32000,
        `too many open streams for this ${answer.refused === 'key' ? 'API key' : 'account'}`,
        {
          'Retry-After': String(STREAM_RETRY_AFTER_SECONDS),
        },
      );
    const { slot } = answer;
    const bus = new InMemoryServerEventBus((error) =>
      deps.logger.debug('mcp listen delivery failed', { error }),
    );
    const handler = createMcpHandler(() => deps.serverFor(caller), {
      legacy: 'reject',
      bus,
      maxSubscriptions: 1,
      ...(deps.keepAliveMs === undefined ? {} : { keepAliveMs: deps.keepAliveMs }),
    });
    const ended = new AbortController();
    const end = async () => {
      if (ended.signal.aborted) return;
      ended.abort();
      await handler.close().catch(() => undefined);
      await slot.release();
    };
    const tell = (change: LiveChange) => {
      if (change.kind === 'incident') {
        const uri = resourceUri({ kind: 'incident', id: change.incident.incident_id });
        return bus.publish({ kind: 'resource_updated', uri });
      }
      const t = change.transition;
      if (t.blueprint_slug !== undefined && t.entity_slug !== undefined)
        bus.publish({
          kind: 'resource_updated',
          uri: resourceUri({ kind: 'entity', blueprint: t.blueprint_slug, slug: t.entity_slug }),
        });
      for (const uri of incidentsOf.get(t.entity_id) ?? []) bus.publish({ kind: 'resource_updated', uri });
    };

    const response = await handler.fetch(request);
    if (response.body === null || !response.headers.get('content-type')?.includes('text/event-stream')) {
      await end();
      return response;
    }
    const stop = AbortSignal.any([ended.signal, slot.replaced, AbortSignal.timeout(deps.maxDurationMs)]);
    stop.addEventListener('abort', () => void end(), { once: true });
    void deps.follow(caller.tenantId, stop, tell).catch((error) => {
      deps.logger.warn('mcp listen stopped following changes', { error });
      void end();
    });
    return new Response(relayed(response.body, end), { status: response.status, headers: response.headers });
  };
}

/** The SDK's stream, passed on; its end or the client's leaving ends the listen (slot, follower). */
function relayed(body: ReadableStream<Uint8Array>, end: () => Promise<void>): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = await reader.read();
      if (done) {
        controller.close();
        await end();
      } else controller.enqueue(value);
    },
    async cancel() {
      await end();
      await reader.cancel().catch(() => undefined);
    },
  });
}
