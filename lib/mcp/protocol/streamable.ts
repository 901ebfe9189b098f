import {
  createMcpHandler,
  isInitializeRequest,
  isLegacyRequest,
  type Server,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import type { Principal } from '../../domain/principal.ts';
import type { Logger } from '../../platform/logger.ts';
import type { CallContext, McpCatalog } from '../ports.ts';
import type { ResourceDeps } from '../resources/reader.ts';
import { type McpSessions, sessionNotFound } from '../sessions/sessions.ts';
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
 * /v1/mcp's Streamable HTTP side, both protocol revisions: a request carrying the 2026-07-28
 * per-request envelope (`_meta` protocol version) goes to the SDK's modern handler, stateless,
 * which answers `server/discover`, checks the revision (an unsupported one gets the spec's
 * -32022 error naming the supported ones) and serves it from a server made for this request;
 * anything else (`initialize` and the 2025-era methods after it) goes to the 2025 leg, with
 * sessions kept in the table (legacySession below). The SDK decides which leg
 * (`isLegacyRequest`), exactly as its own entry would. Host, Origin and the key are checked by the
 * route before this runs.
 */
export function createStreamableEndpoint(
  catalog: McpCatalog,
  logger: Logger,
  served: {
    /** Resources (lib/mcp/resources): both revisions read them; only 2026-07-28 subscribes. */
    resources: ResourceDeps;
    /** `subscriptions/listen`: a stream of its own per request (lib/mcp/resources/listen.ts). */
    listen: (caller: Principal, request: Request) => Promise<Response>;
    /** The 2025-era revisions' sessions (lib/mcp/sessions). */
    sessions: McpSessions;
  },
): StreamableEndpoint {
  const resources = (subscribe: boolean) => ({ deps: served.resources, subscribe });
  const { sessions } = served;
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
    if (await isLegacyRequest(request)) {
      const sessionId = request.headers.get('mcp-session-id');
      const initialize = await isInitialize(request);
      if (initialize) {
        // `initialize` opens a session (a header it carries names one it is leaving).
        const response = await handleLegacyStreamable(
          createMcpServer(catalog, caller, context, resources(true), '2025'),
          request,
        );
        return opened(response, caller, initialize);
      }
      // Without the header, a request is answered statelessly, as before sessions: no subscriptions.
      if (sessionId === null)
        return handleLegacyStreamable(
          createMcpServer(catalog, caller, context, resources(false), '2025'),
          request,
        );
      const session = await sessions.find(caller, sessionId, { keep: true });
      if (!session) return sessionNotFound();
      const scope = { sessions, sessionId, incidents: served.resources.incidents };
      return handleLegacyStreamable(
        createMcpServer(catalog, caller, context, { ...resources(true), session: scope }, '2025'),
        request,
      );
    }
    if (request.headers.get('mcp-method') === LISTEN) return served.listen(caller, request);
    exchanges.set(request, { caller, context });
    return modern.fetch(request);
  };

  /** The answer to `initialize` with the id of the session it opened, or as it was when it failed. */
  async function opened(
    response: Response,
    caller: Principal,
    initialize: InitializeParams,
  ): Promise<Response> {
    if (response.status !== 200) return response;
    const text = await response.text();
    let protocolVersion: unknown;
    try {
      protocolVersion = (JSON.parse(text) as { result?: { protocolVersion?: unknown } }).result
        ?.protocolVersion;
    } catch {
      protocolVersion = undefined;
    }
    const headers = new Headers(response.headers);
    if (typeof protocolVersion === 'string') {
      const id = await sessions.open(caller, {
        protocolVersion,
        clientCapabilities: initialize.capabilities,
      });
      headers.set('mcp-session-id', id);
    }
    return new Response(text, { status: response.status, headers });
  }
}

/** What a session keeps of an `initialize` request. */
interface InitializeParams {
  capabilities: Record<string, unknown>;
}

/** The request's `initialize` (one message, as the SDK requires), or undefined for any other body. */
async function isInitialize(request: Request): Promise<InitializeParams | undefined> {
  if (request.method !== 'POST') return undefined;
  const body: unknown = await request
    .clone()
    .json()
    .catch(() => undefined);
  const message = Array.isArray(body) && body.length === 1 ? body[0] : body;
  if (!isInitializeRequest(message)) return undefined;
  return { capabilities: { ...message.params.capabilities } };
}

/** The 2026-07-28 method that holds a stream open for change notifications. */
const LISTEN = 'subscriptions/listen';

/**
 * One 2025-era Streamable HTTP exchange: a server and transport made for this request, JSON
 * answers (no SSE), both closed once the answer is built. The session, when there is one, was
 * checked against the table before and is not the transport's to know: nothing outlives the
 * request, so any process (a Lambda invocation) can answer any POST.
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
