import * as z from 'zod';
import type { Principal } from '../domain/principal.ts';
import { defineRoute } from '../http/define-route.ts';
import { browserRefusal, type HostPolicy, hostPolicyOf } from '../http/origin-policy.ts';
import { publicOrigin, resourceMetadataUrl } from '../http/public-origin.ts';
import { webRequest } from '../http/stream-web.ts';
import type { PublicRoute, RouteContext } from '../http/types.ts';
import type { Clock } from '../platform/clock.ts';
import { UnauthorizedError } from '../platform/errors.ts';
import type { Logger } from '../platform/logger.ts';
import type { FollowTransitions } from '../status/stream-follow.ts';
import type { StreamSlots } from '../streams/stream-slots.ts';
import {
  DEFAULT_LEGACY_STREAM,
  exchange,
  jsonRpcErrorResponse,
  type LegacyStreamDeps,
  type LegacyStreamSettings,
  openLegacyStream,
  parseMessages,
} from './legacy-sse.ts';
import type { McpCatalog } from './ports.ts';
import { connectionContext, connectionQuery } from './protocol/connection.ts';
import { createMcpServer } from './protocol/server.ts';
import { createStreamableEndpoint } from './protocol/streamable.ts';
import { jsonRpcErrorBody, mcpRequestBody, mcpResponseBody } from './protocol/wire-schemas.ts';
import type { McpRelay } from './relay.ts';
import { createListenEndpoint } from './resources/listen.ts';
import type { ResourceDeps } from './resources/reader.ts';

export interface McpRouteDeps {
  tools: McpCatalog;
  relay: McpRelay;
  /** Caps on open legacy SSE and subscriptions/listen streams per key and per tenant. */
  slots: StreamSlots;
  /** What vigil:// resources read through (lib/mcp/resources/reader.ts). */
  resources: ResourceDeps;
  /** The console live stream's follower of entity transitions: what subscriptions/listen tells. */
  follow: FollowTransitions;
  clock: Clock;
  logger: Logger;
  /** The app's key check under the rate limits (401, 403 ACCOUNT_DISABLED, 429 as on every route). */
  authenticateKey(ctx: RouteContext): Promise<Principal>;
  /** The legacy SSE stream's limits; default DEFAULT_LEGACY_STREAM. */
  legacy?: Partial<LegacyStreamSettings>;
  /** The host names it answers under and VIGIL_PUBLIC_URL, against DNS rebinding (lib/http/origin-policy.ts). */
  hosts: Parameters<typeof hostPolicyOf>[0];
}

/** JSON-RPC's implementation-defined server error range: the code MCP clients see with a 401. */
const UNAUTHORIZED_RPC = -32001;

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
 * The caller, or the 401 MCP clients understand: `WWW-Authenticate: Bearer` and a JSON-RPC error
 * body. The key is checked here rather than by the router because read-only keys may POST
 * (read-only tools) and the 401 body is JSON-RPC, not the API's error envelope. A Host the server
 * is not known by (DNS rebinding) and a browser page of another origin are refused first, as MCP
 * requires: 403 with a JSON-RPC error, as the SDK's own. Not the SDK transport's
 * allowedHosts/allowedOrigins: they match whole `host:port` values (loopback on any port cannot be
 * said), do not cover the legacy SSE GET, and would answer after the key check.
 */
async function callerOf(
  deps: McpRouteDeps,
  hosts: HostPolicy,
  ctx: RouteContext,
): Promise<Principal | Response> {
  const refusal = browserRefusal(ctx.headers, hosts, ctx.platformHost);
  if (refusal === 'host')
    return jsonRpcErrorResponse(403, -32000, 'Forbidden: this server does not answer under this Host');
  if (refusal === 'origin')
    return jsonRpcErrorResponse(403, -32000, 'Forbidden: requests from this Origin are not allowed');
  try {
    return await deps.authenticateKey(ctx);
  } catch (err) {
    if (!(err instanceof UnauthorizedError)) throw err;
    // The pointer OAuth clients discover the authorization server by (MCP authorization, RFC 9728 5.1).
    const metadata = resourceMetadataUrl(publicOrigin(hosts, ctx));
    return jsonRpcErrorResponse(401, UNAUTHORIZED_RPC, err.message, {
      'WWW-Authenticate': `Bearer resource_metadata="${metadata}"`,
    });
  }
}

/** GET and POST /v1/mcp: Streamable HTTP (stateless; 2026-07-28 and 2025-11-25) and the 2024-11-05 HTTP+SSE transport. */
export function mcpRoutes(deps: McpRouteDeps): PublicRoute[] {
  const legacy: LegacyStreamDeps = {
    relay: deps.relay,
    slots: deps.slots,
    clock: deps.clock,
    logger: deps.logger.child({ component: 'mcp' }),
    settings: { ...DEFAULT_LEGACY_STREAM, ...deps.legacy },
  };
  const hosts = hostPolicyOf(deps.hosts);
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
  });
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
        "MCP messages (Authorization: Bearer <API key>): Streamable HTTP, stateless, protocol 2026-07-28 (the revision in each request's `_meta`; server/discover) or 2025-11-25 (initialize first), chosen per request; with ?sessionId a legacy SSE message, answered 202 and on its stream",
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
          400: {
            description:
              'JSON-RPC -32700/-32600/-32000/-32602/-32020/-32022: a body that is not a JSON-RPC message or batch, an unsupported MCP-Protocol-Version (2026-07-28: -32022 naming the supported revisions), a malformed `_meta` or headers that disagree with it',
            schema: jsonRpcErrorBody,
          },
          401: { description: 'UNAUTHORIZED, as a JSON-RPC error (-32001)', schema: jsonRpcErrorBody },
          403: {
            description:
              "A Host the server is not known by (DNS rebinding) or an Origin other than the console's own (MCP: invalid Origin), as a JSON-RPC error (-32000)",
            schema: jsonRpcErrorBody,
          },
          406: {
            description: 'Accept does not list both application/json and text/event-stream (Streamable HTTP)',
            schema: jsonRpcErrorBody,
          },
          415: {
            description: 'Content-Type is not application/json (Streamable HTTP)',
            schema: jsonRpcErrorBody,
          },
          429: {
            description:
              'Too many open `subscriptions/listen` streams for the key or the tenant (Retry-After), as a JSON-RPC error (-32000)',
            schema: jsonRpcErrorBody,
          },
        },
      },
      handler: async (ctx) => {
        const caller = await callerOf(deps, hosts, ctx);
        if (caller instanceof Response) return caller;
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
        await deps.relay.push(session, await exchange(deps.tools, caller, messages));
        return new Response(null, { status: 202 });
      },
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
        'The 2024-11-05 SSE stream (Authorization: Bearer <API key>): an `endpoint` event, then `message` events; 405 for a Streamable HTTP GET',
      schemas: {
        responses: {
          200: {
            contentType: 'text/event-stream',
            schema: z.string().meta({
              description:
                'Server-Sent Events: `endpoint` (data: /v1/mcp?sessionId=…), then a `message` event per JSON-RPC answer',
            }),
          },
        },
        checksKey: true,
        errors,
        otherErrors: {
          401: { description: 'UNAUTHORIZED, as a JSON-RPC error (-32001)', schema: jsonRpcErrorBody },
          403: {
            description:
              "A Host the server is not known by (DNS rebinding) or an Origin other than the console's own (MCP: invalid Origin), as a JSON-RPC error (-32000)",
            schema: jsonRpcErrorBody,
          },
          405: {
            description:
              'A Streamable HTTP GET (MCP-Protocol-Version or Mcp-Session-Id set): this server keeps no sessions',
            schema: jsonRpcErrorBody,
          },
          429: {
            description:
              'Too many open legacy SSE streams for the key or the tenant (Retry-After), as a JSON-RPC error (-32000)',
            schema: jsonRpcErrorBody,
          },
        },
      },
      handler: async (ctx) => {
        const caller = await callerOf(deps, hosts, ctx);
        if (caller instanceof Response) return caller;
        // Streamable HTTP's GET (a server-to-client stream) needs a session; this server keeps none.
        if (ctx.headers['mcp-protocol-version'] !== undefined || ctx.headers['mcp-session-id'] !== undefined)
          return jsonRpcErrorResponse(
            405,
            -32000,
            'Method not allowed: the Streamable HTTP endpoint is stateless',
            {
              Allow: 'POST',
            },
          );
        return openLegacyStream(legacy, caller);
      },
    }),
  ];
}
