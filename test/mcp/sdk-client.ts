import type { FetchLike } from '@modelcontextprotocol/client';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { ApiHarness } from '../support/api-harness.ts';

/**
 * The harness as the SDK's fetch (`/v1/mcp`, and the OAuth endpoints of test/oauth): real HTTP to
 * the local runtime, the api Lambda handler over DynamoDB Local in the cloud harness. The Streamable
 * HTTP answers to POSTs are JSON, so a buffered answer is the whole answer (a session's GET stream is not asked for); a
 * redirect (OAuth's 302) comes back without its body, as a browser's fetch sees it.
 */
export function harnessFetch(api: ApiHarness): FetchLike {
  return async (url, init) => {
    const request = new Request(url, init);
    // A session's GET stream never ends, so a buffered answer cannot carry it: the client hears
    // what a server without one answers (405), and goes on without server-sent messages.
    if (request.method === 'GET' && request.headers.has('mcp-session-id'))
      return new Response(null, { status: 405 });
    const { pathname, search } = new URL(request.url);
    const body = Buffer.from(await request.arrayBuffer());
    const res = await api.request(request.method, `${pathname}${search}`, {
      headers: Object.fromEntries(request.headers),
      ...(body.length > 0 ? { rawBody: body } : {}),
    });
    const empty = res.text === '' || res.status === 202 || res.status === 204 || res.status === 302;
    return new Response(empty ? null : res.text, { status: res.status, headers: res.headers });
  };
}

/** The official MCP SDK client over Streamable HTTP with `key`; close it when done. */
export async function connectSdkClient(api: ApiHarness, key: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL('http://vigil.test/v1/mcp'), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
    fetch: harnessFetch(api),
  });
  const client = new Client({ name: 'vigil-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}
