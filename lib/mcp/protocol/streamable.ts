import {
  createMcpHandler,
  isLegacyRequest,
  type Server,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import type { Principal } from '../../domain/principal.ts';
import type { Logger } from '../../platform/logger.ts';
import type { CallContext, McpCatalog } from '../ports.ts';
import type { ResourceDeps } from '../resources/reader.ts';
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
export function createStreamableEndpoint(
  catalog: McpCatalog,
  logger: Logger,
  served: {
    /** Resources (lib/mcp/resources): both revisions read them; only 2026-07-28 subscribes. */
    resources: ResourceDeps;
    /** `subscriptions/listen`: a stream of its own per request (lib/mcp/resources/listen.ts). */
    listen: (caller: Principal, request: Request) => Promise<Response>;
  },
): StreamableEndpoint {
  const resources = (subscribe: boolean) => ({ deps: served.resources, subscribe });
  // The factory is handed the Request the route passed in, so the caller travels with it.
  const exchanges = new WeakMap<Request, Exchange>();
  const modern = createMcpHandler(
    ({ requestInfo }) => {
      const exchange = requestInfo === undefined ? undefined : exchanges.get(requestInfo);
      if (exchange === undefined) throw new Error('an MCP exchange without its caller');
      return createMcpServer(catalog, exchange.caller, exchange.context, resources(true));
    },
    {
      legacy: 'reject',
      onerror: (error) => logger.debug('mcp request refused', { error }),
    },
  );
  return async (caller, request, context = {}) => {
    if (await isLegacyRequest(request))
      return handleLegacyStreamable(createMcpServer(catalog, caller, context, resources(false)), request);
    if (request.headers.get('mcp-method') === LISTEN) return served.listen(caller, request);
    exchanges.set(request, { caller, context });
    return modern.fetch(request);
  };
}

/** The 2026-07-28 method that holds a stream open for change notifications. */
const LISTEN = 'subscriptions/listen';

/**
 * One 2025-era Streamable HTTP exchange, stateless: a server and transport made for this request,
 * JSON answers (no SSE), both closed once the answer is built. Nothing outlives the request, so
 * any process (a Lambda invocation) can answer any POST.
 */
async function handleLegacyStreamable(server: Server, request: Request): Promise<Response> {
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
