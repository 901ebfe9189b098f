import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Principal } from '../../domain/principal.ts';
import type { CallContext, ToolCatalog } from '../ports.ts';
import { createMcpServer } from './server.ts';

/**
 * One Streamable HTTP exchange, stateless: a server and transport made for this request, JSON
 * answers (no SSE), both closed once the answer is built. Nothing outlives the request, so any
 * process (a Lambda invocation) can answer any POST.
 */
export async function handleStreamable(
  catalog: ToolCatalog,
  caller: Principal,
  request: Request,
  context: CallContext = {},
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
