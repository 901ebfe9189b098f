import * as z from 'zod';
import type { Principal } from '../domain/principal.ts';
import { defineRoute } from '../http/define-route.ts';
import { hostPolicyOf } from '../http/origin-policy.ts';
import { webRequest } from '../http/router.ts';
import type { PublicRoute, RouteContext } from '../http/types.ts';
import type { Clock } from '../platform/clock.ts';
import type { Logger } from '../platform/logger.ts';
import type { FollowChanges } from '../status/stream-follow.ts';
import type { Table } from '../store/table.ts';
import type { StreamSlots } from '../streams/stream-slots.ts';
import { jsonRpcErrorResponse, parseMessages } from './json-rpc.ts';
import {
  DEFAULT_LEGACY_STREAM,
  exchange,
  type LegacyStreamDeps,
  type LegacyStreamSettings,
  openLegacyStream,
} from './legacy-sse.ts';
import type { McpCatalog } from './ports.ts';
import { callerOf, rpcAuthErrors } from './protocol/caller.ts';
import { connectionContext, connectionQuery } from './protocol/connection.ts';
import { createMcpServer } from './protocol/server.ts';
import { createStreamableEndpoint } from './protocol/streamable.ts';
import { mcpRequestBody, mcpResponseBody, rpcError } from './protocol/wire-schemas.ts';
import type { McpRelay } from './relay.ts';
import { createListenEndpoint } from './resources/listen.ts';
import type { ResourceDeps } from './resources/reader.ts';
import { createSessionStream } from './sessions/session-stream.ts';
import { createMcpSessions, sessionNotFound } from './sessions/sessions.ts';

export interface McpRouteDeps {
  tools: McpCatalog;
  relay: McpRelay;
  /** Where the 2025-era Streamable HTTP sessions are kept (lib/mcp/sessions). */
  table: Table;
  /** Caps on open legacy SSE, subscriptions/listen and session streams per key and per tenant. */
  slots: StreamSlots;
  /** What vigil:// resources read through (lib/mcp/resources/reader.ts). */
  resources: ResourceDeps;
  /** The console live stream's follower of entity transitions, with incident changes: what subscriptions tell. */
  follow: FollowChanges;
  clock: Clock;
  logger: Logger;
  /** The app's key check under the rate limits (401, 403 ACCOUNT_DISABLED, 429 as on every route). */
  authenticateKey(ctx: RouteContext): Promise<Principal>;
  /** The legacy SSE stream's limits; default DEFAULT_LEGACY_STREAM. */
  legacy?: Partial<LegacyStreamSettings>;
  /** The host names it answers under and VIGIL_PUBLIC_URL, against DNS rebinding (lib/http/origin-policy.ts). */
  hosts: Parameters<typeof hostPolicyOf>[0];
}

const tag = 'MCP';
/** Envelope errors (the key's tenant disabled, the rate limits); a missing or unknown key is JSON-RPC. */
const errors = ['ACCOUNT_DISABLED', 'RATE_LIMITED'] as const;
const sessionQuery = z.object({
  sessionId: z.string().max(64).optional().meta({
    description: 'A legacy SSE session (the `endpoint` event names it): the POST is a relayed message',
  }),
  ...connectionQuery,
});

/**
 * GET, POST and DELETE /v1/mcp: Streamable HTTP (2026-07-28 stateless; 2025-11-25 and the 2025
 * revisions before it with sessions) and the 2024-11-05 HTTP+SSE transport.
 */
export function mcpRoutes(deps: McpRouteDeps): PublicRoute[] {
  const legacy: LegacyStreamDeps = {
    relay: deps.relay,
    slots: deps.slots,
    clock: deps.clock,
    logger: deps.logger.child({ component: 'mcp' }),
    settings: { ...DEFAULT_LEGACY_STREAM, ...deps.legacy },
  };
  const hosts = hostPolicyOf(deps.hosts);
  const sessions = createMcpSessions({ table: deps.table, clock: deps.clock });
  const streamable = createStreamableEndpoint(deps.tools, legacy.logger, {
    resources: deps.resources,
    // A listen stream lasts as long as a legacy SSE stream may (a Lambda's timeout in the cloud).
    listen: createListenEndpoint({
      resources: deps.resources,
      follow: deps.follow,
      slots: deps.slots,
      serverFor: (caller) =>
        createMcpServer(deps.tools, caller, {}, { deps: deps.resources, subscribe: true }),
      maxDurationMs: legacy.settings.maxDurationMs,
      logger: legacy.logger,
    }),
    sessions,
  });
  // A session's stream lasts as long as a legacy SSE stream may, and looks at its session as often as it keeps alive.
  const sessionStream = createSessionStream({
    sessions,
    follow: deps.follow,
    slots: deps.slots,
    maxDurationMs: legacy.settings.maxDurationMs,
    heartbeatMs: legacy.settings.heartbeatMs,
    checkMs: legacy.settings.heartbeatMs,
    logger: legacy.logger,
  });
  /** A handler that answers callerOf's refusal (host, origin, key) itself and otherwise goes on with the caller. */
  const asCaller =
    <C extends RouteContext>(handle: (caller: Principal, ctx: C) => Promise<Response>) =>
    async (ctx: C): Promise<Response> => {
      const caller = await callerOf(deps, hosts, ctx);
      return caller instanceof Response ? caller : handle(caller, ctx);
    };
  return [
    defineRoute({
      method: 'POST',
      path: '/v1/mcp',
      auth: 'none',
      limit: 'credential',
      body: 'raw',
      operationId: 'postMcp',
      tag,
      summary:
        "MCP messages (Authorization: Bearer <API key>): Streamable HTTP, protocol 2026-07-28 (stateless: the revision in each request's `_meta`; server/discover) or 2025-11-25 (initialize answers an Mcp-Session-Id the later requests carry; resources/subscribe on it), chosen per request; with ?sessionId a legacy SSE message, answered 202 and on its stream",
      schemas: {
        query: sessionQuery,
        checksKey: true,
        rawBody: { contentType: 'application/json', schema: mcpRequestBody },
        responses: {
          200: {
            contentType: 'application/json',
            schema: mcpResponseBody,
            also: {
              'text/event-stream': z.string().meta({
                description:
                  'Streamable HTTP lets a server answer with a stream, so clients must accept it (406 otherwise); this server answers JSON, except `subscriptions/listen` (2026-07-28): an acknowledgement, then `notifications/resources/updated` as subscribed entities and incidents change',
              }),
            },
          },
          // Accepted, no body: a legacy message POST (its answers go to the session stream), or
          // notifications and responses only.
          202: null,
        },
        errors: [...errors, 'NOT_FOUND'],
        otherErrors: {
          400: rpcError(
            'JSON-RPC -32700/-32600/-32000/-32602/-32020/-32022: a body that is not a JSON-RPC message or batch, an unsupported MCP-Protocol-Version (2026-07-28: -32022 naming the supported revisions), a malformed `_meta` or headers that disagree with it',
          ),
          ...rpcAuthErrors,
          404: rpcError(
            "An Mcp-Session-Id that is unknown, ended, expired or another key's, as a JSON-RPC error (-32001: initialize again); a legacy ?sessionId that is, as the API's envelope",
          ),
          406: rpcError('Accept does not list both application/json and text/event-stream (Streamable HTTP)'),
          415: rpcError('Content-Type is not application/json (Streamable HTTP)'),
          429: rpcError(
            'Too many open `subscriptions/listen` streams for the key or the tenant (Retry-After), as a JSON-RPC error (-32000)',
          ),
        },
      },
      handler: asCaller(async (caller, ctx) => {
        const sessionId = ctx.query.sessionId;
        if (sessionId === undefined)
          return streamable(caller, webRequest(ctx), {
            sourceIp: ctx.sourceIp,
            ...connectionContext(ctx.query),
          });
        const session = await deps.relay.sessionOf(caller, sessionId);
        const messages = parseMessages(ctx.rawBody);
        if (!messages)
          return jsonRpcErrorResponse(400, -32700, 'Parse error: the body is not a JSON-RPC message');
        await deps.relay.push(session, await exchange(deps.tools, deps.resources, caller, messages));
        return new Response(null, { status: 202 });
      }),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/mcp',
      auth: 'none',
      limit: 'credential',
      body: 'raw',
      operationId: 'openMcpStream',
      tag,
      summary:
        "The 2024-11-05 SSE stream (Authorization: Bearer <API key>): an `endpoint` event, then `message` events; with Mcp-Session-Id (2025-era Streamable HTTP) the session's stream of `notifications/resources/updated`; 405 for a Streamable HTTP GET without one",
      schemas: {
        responses: {
          200: {
            contentType: 'text/event-stream',
            schema: z.string().meta({
              description:
                "Server-Sent Events: `endpoint` (data: /v1/mcp?sessionId=…), then a `message` event per JSON-RPC answer; on a session's stream a `message` event per `notifications/resources/updated` of a subscribed resource",
            }),
          },
        },
        checksKey: true,
        errors,
        otherErrors: {
          ...rpcAuthErrors,
          404: rpcError(
            "An Mcp-Session-Id that is unknown, ended, expired or another key's, as a JSON-RPC error (-32001: initialize again)",
          ),
          405: rpcError(
            'A Streamable HTTP GET without a session (MCP-Protocol-Version set, no Mcp-Session-Id): nothing to stream',
          ),
          406: rpcError('A session stream whose Accept does not list text/event-stream'),
          429: rpcError(
            'Too many open legacy SSE or session streams for the key or the tenant (Retry-After), as a JSON-RPC error (-32000)',
          ),
        },
      },
      handler: asCaller(async (caller, ctx) => {
        const sessionId = ctx.headers['mcp-session-id'];
        if (sessionId !== undefined) return sessionStream(caller, sessionId, ctx.headers.accept);
        // Streamable HTTP's GET (a server-to-client stream) belongs to a session.
        if (ctx.headers['mcp-protocol-version'] !== undefined)
          return jsonRpcErrorResponse(
            405,
            -32000,
            'Method not allowed: a Streamable HTTP GET needs an Mcp-Session-Id',
            {
              Allow: 'POST, DELETE',
            },
          );
        return openLegacyStream(legacy, caller);
      }),
    }),
    defineRoute({
      method: 'DELETE',
      path: '/v1/mcp',
      auth: 'none',
      limit: 'credential',
      body: 'raw',
      operationId: 'endMcpSession',
      tag,
      summary:
        'Ends a 2025-era Streamable HTTP session (Authorization: Bearer <API key>, Mcp-Session-Id): its later requests get 404 and its stream ends',
      schemas: {
        responses: { 204: null },
        checksKey: true,
        errors,
        otherErrors: {
          ...rpcAuthErrors,
          400: rpcError('No Mcp-Session-Id header, as a JSON-RPC error (-32000)'),
          404: rpcError(
            "An Mcp-Session-Id that is unknown, ended, expired or another key's, as a JSON-RPC error (-32001)",
          ),
        },
      },
      handler: asCaller(async (caller, ctx) => {
        const sessionId = ctx.headers['mcp-session-id'];
        if (sessionId === undefined)
          return jsonRpcErrorResponse(400, -32000, 'Bad Request: Mcp-Session-Id header is required');
        if (!(await sessions.close(caller, sessionId))) return sessionNotFound();
        return new Response(null, { status: 204 });
      }),
    }),
  ];
}
