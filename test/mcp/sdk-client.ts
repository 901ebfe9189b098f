import type { FetchLike } from '@modelcontextprotocol/client';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { ApiHarness } from '../support/api-harness.ts';

/**
 * The harness as the SDK's fetch (`/v1/mcp`, and the OAuth endpoints of test/oauth): real HTTP to
 * the local runtime, the api Lambda handler over DynamoDB Local in the cloud harness. The Streamable
 * HTTP answers are JSON (the server is stateless), so a buffered answer is the whole answer; a
 * redirect (OAuth's 302) comes back without its body, as a browser's fetch sees it.
 */
export function harnessFetch(api: ApiHarness): FetchLike {
  return async (url, init) => {
    const request = new Request(url, init);
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
