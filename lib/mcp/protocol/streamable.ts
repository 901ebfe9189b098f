import {
  createMcpHandler,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import * as z from 'zod';
import type { Principal } from '../../domain/principal.ts';
import type { Logger } from '../../platform/logger.ts';
import type { CallContext, McpCatalog } from '../ports.ts';
import { createMcpServer } from './server.ts';

/** Who one HTTP exchange is for: what the route authenticated, handed to the server factory. */
interface Exchange {
  caller: Principal;
  context: CallContext;
}

/** Serves one Streamable HTTP POST, either revision, for an authenticated caller. */
export type StreamableEndpoint = (
  caller: Principal,
  request: Request,
  context?: CallContext,
) => Promise<Response>;

/**
 * /v1/mcp's Streamable HTTP side, both protocol revisions, stateless: a request carrying the
 * 2026-07-28 per-request envelope (`_meta` protocol version) goes to the SDK's modern handler,
 * which answers `server/discover`, checks the revision (an unsupported one gets the spec's
 * -32022 error naming the supported ones) and serves it from a server made for this request;
 * anything else (`initialize` and the 2025-era methods after it) goes to the 2025 leg, a stateless
 * transport answering JSON. The SDK decides which leg (`isLegacyRequest`), exactly as its own
 * entry would. Host, Origin and the key are checked by the route before this runs.
 */
export function createStreamableEndpoint(catalog: McpCatalog, logger: Logger): StreamableEndpoint {
  // The factory is handed the Request the route passed in, so the caller travels with it.
  const exchanges = new WeakMap<Request, Exchange>();
  const modern = createMcpHandler(
    ({ requestInfo }) => {
      const exchange = requestInfo === undefined ? undefined : exchanges.get(requestInfo);
      if (exchange === undefined) throw new Error('an MCP exchange without its caller');
      return createMcpServer(catalog, exchange.caller, exchange.context);
    },
    {
      legacy: 'reject',
      onerror: (error) => logger.debug('mcp request refused', { error }),
    },
  );
  return async (caller, request, context = {}) => {
    if (await isLegacyRequest(request)) return handleLegacyStreamable(catalog, caller, request, context);
    if (request.headers.get('mcp-method') === LISTEN) return listenNotServed(request);
    exchanges.set(request, { caller, context });
    return modern.fetch(request);
  };
}

/** The 2026-07-28 method that holds a stream open for change notifications. */
const LISTEN = 'subscriptions/listen';
const requestId = z.object({ id: z.union([z.string(), z.number()]) });

/**
 * `subscriptions/listen` is not served yet: the server declares nothing a client could subscribe
 * to, and the SDK's stream would hold a connection (in the cloud, a Lambda invocation until its
 * timeout) that no change ever reaches, outside the per-key and per-tenant stream caps. Answered
 * as the SDK answers a method it does not serve (HTTP 404, -32601). The SDK itself refuses a
 * request whose `Mcp-Method` header and body disagree, so the header is enough to go by.
 */
async function listenNotServed(request: Request): Promise<Response> {
  const parsed = requestId.safeParse(await request.json().catch(() => undefined));
  const body = {
    jsonrpc: '2.0',
    id: parsed.success ? parsed.data.id : null,
    error: { code: -32601, message: `Method not found: ${LISTEN}` },
  };
  return new Response(JSON.stringify(body), { status: 404, headers: { 'content-type': 'application/json' } });
}

/**
 * One 2025-era Streamable HTTP exchange, stateless: a server and transport made for this request,
 * JSON answers (no SSE), both closed once the answer is built. Nothing outlives the request, so
 * any process (a Lambda invocation) can answer any POST.
 */
async function handleLegacyStreamable(
  catalog: McpCatalog,
  caller: Principal,
  request: Request,
  context: CallContext,
): Promise<Response> {
  const server = createMcpServer(catalog, caller, context);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    const response = await transport.handleRequest(request);
    // JSON mode answers once every response is in; read it before closing the transport.
    const body = await response.arrayBuffer();
    return new Response(body.byteLength > 0 ? body : null, {
      status: response.status,
      headers: response.headers,
    });
  } finally {
    await server.close();
  }
}
