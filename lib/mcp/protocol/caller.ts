import type { Principal } from '../../domain/principal.ts';
import { browserRefusal, type HostPolicy } from '../../http/origin-policy.ts';
import { publicOrigin, resourceMetadataUrl } from '../../http/policies.ts';
import type { RouteContext } from '../../http/types.ts';
import { UnauthorizedError } from '../../platform/errors.ts';
import { jsonRpcErrorResponse, requestIdOf } from '../json-rpc.ts';
import { rpcError } from './wire-schemas.ts';

interface McpRouteDeps {
  /** The app's key check under the rate limits (401, 403 ACCOUNT_DISABLED, 429 as on every route). */
  authenticateKey(ctx: RouteContext): Promise<Principal>;
}

/** JSON-RPC's implementation-defined server error range: the code MCP clients see with a 401. */
const UNAUTHORIZED_RPC = -32001;

/** The 401 and 403 every /v1/mcp method answers with a JSON-RPC body. */
export const rpcAuthErrors = {
  401: rpcError('UNAUTHORIZED, as a JSON-RPC error (-32001)'),
  403: rpcError(
    "A Host the server is not known by (DNS rebinding) or an Origin other than the console's own (MCP: invalid Origin), as a JSON-RPC error (-32000)",
  ),
};
/**
 * The caller, or the 401 MCP clients understand: `WWW-Authenticate: Bearer` and a JSON-RPC error
 * body. The key is checked here rather than by the router because read-only keys may POST
 * (read-only tools) and the 401 body is JSON-RPC, not the API's error envelope. A Host the server
 * is not known by (DNS rebinding) and a browser page of another origin are refused first, as MCP
 * requires: 403 with a JSON-RPC error, as the SDK's own. Not the SDK transport's
 * allowedHosts/allowedOrigins: they match whole `host:port` values (loopback on any port cannot be
 * said), do not cover the legacy SSE GET, and would answer after the key check.
 */
export async function callerOf(
  deps: Pick<McpRouteDeps, 'authenticateKey'>,
  hosts: HostPolicy,
  ctx: RouteContext,
): Promise<Principal | Response> {
  // A refusal answers the request it refuses: its id when the body is one request (JSON-RPC 2.0 5).
  const id = () => requestIdOf(ctx.rawBody);
  const refusal = browserRefusal(ctx.headers, hosts, ctx.platformHost);
  if (refusal === 'host')
    return jsonRpcErrorResponse(
      403,
      -32000,
      'Forbidden: this server does not answer under this Host',
      {},
      id(),
    );
  if (refusal === 'origin')
    return jsonRpcErrorResponse(
      403,
      -32000,
      'Forbidden: requests from this Origin are not allowed',
      {},
      id(),
    );
  try {
    return await deps.authenticateKey(ctx);
  } catch (err) {
    if (!(err instanceof UnauthorizedError)) throw err;
    // The pointer OAuth clients discover the authorization server by (MCP authorization, RFC 9728 5.1).
    const metadata = resourceMetadataUrl(publicOrigin(hosts, ctx));
    return jsonRpcErrorResponse(
      401,
      UNAUTHORIZED_RPC,
      err.message,
      { 'WWW-Authenticate': `Bearer resource_metadata="${metadata}"` },
      id(),
    );
  }
}
