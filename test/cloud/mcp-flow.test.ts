import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Transport } from '@modelcontextprotocol/client';
import { Client, SSEClientTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { createApiHandler } from '../../functions/api.ts';
import { createMcpHandler } from '../../functions/mcp.ts';
import { createCloudApp } from '../../lib/cloud/http-composition.ts';
import { CATALOG_OPS_MANIFEST } from '../../lib/features/feature-routes.ts';
import { getRelaySession } from '../../lib/mcp/relay-items.ts';
import { loadConfig } from '../../lib/platform/config.ts';
import { streamedResponse } from '../mcp/mcp-fronts.ts';
import { fakeStreamingRuntime, functionUrlEvent } from '../status/stream-drivers.ts';
import { createTestTable, type TestTable } from '../support/dynamodb-local.ts';
import { lambdaContext } from './support.ts';

// functions/mcp.ts builds its module-scope handler from the Lambda runtime's global.
vi.hoisted(() => {
  Object.assign(globalThis, {
    awslambda: {
      streamifyResponse: (handler: unknown) => handler,
      HttpResponseStream: { from: (stream: unknown) => stream },
    },
  });
});

/** Rate limits off: the clients make many calls from one address in a moment. */
const TEST_ENV = { VIGIL_LOG_LEVEL: 'debug', VIGIL_RATE_LIMIT_RPS: '0', VIGIL_AUTH_FAILURE_LIMIT: '0' };
/**
 * A legacy stream this short ends while its test runs, so the client's reconnection is exercised
 * (long enough for the client's first exchange on a busy machine).
 */
const MAX_STREAM_MS = 4000;
/**
 * How long legacy streams last in the other tests: they must not end before a slow machine has
 * finished the test's exchange (a request in flight when its session ends is never answered).
 */
const LONG_STREAM_MS = 30_000;

/** One invocation of the MCP Lambda, as the forwarding server made it. */
interface Invocation {
  method: string;
  path: string;
  sessionId: string | undefined;
  /** The status the handler answered with, once its prelude is written. */
  status?: number;
}

let testTable: TestTable;
let cloud: ReturnType<typeof createCloudApp>;
let server: Server;
let base: string;
/** The same function, its legacy streams ending after MAX_STREAM_MS. */
let shortServer: Server;
let shortBase: string;
let keyA: string;
let keyB: string;
let tenantA: string;
const invocations: Invocation[] = [];
const clients: Client[] = [];

/**
 * What a function URL does with one HTTP request: a payload v2 event to a new invocation of the
 * handler, whose response stream (prelude, eight NULs, body) is relayed as it is written. Each
 * request is its own invocation, as in Lambda: nothing but the table joins a stream to its POSTs.
 */
function forward(handler: ReturnType<typeof createMcpHandler>) {
  return async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    const event = functionUrlEvent(url.pathname, headers);
    event.rawQueryString = url.search.slice(1);
    event.requestContext.http.method = req.method ?? 'GET';
    event.body = body.length > 0 ? body.toString('base64') : undefined;
    event.isBase64Encoded = body.length > 0;
    const invocation: Invocation = {
      method: event.requestContext.http.method,
      path: url.pathname,
      sessionId: url.searchParams.get('sessionId') ?? undefined,
    };
    invocations.push(invocation);

    const responseStream = streamedResponse(res, (status) => {
      invocation.status = status;
    });
    try {
      await handler(event, responseStream, lambdaContext('mcp'));
      res.end();
    } catch {
      res.destroy();
    }
  };
}

async function call(method: string, path: string, key: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  const json = res.headers.get('content-type')?.startsWith('application/json');
  return { status: res.status, body: (json ? JSON.parse(text) : text) as unknown };
}

/**
 * The SDK's SSE client as a 2024-11-05 client reconnects: without MCP-Protocol-Version, a header
 * that revision does not have (the SDK adds it once initialized, and a GET carrying it is a
 * Streamable HTTP GET: 405).
 */
const withoutProtocolVersion: typeof fetch = (url, init) => {
  const headers = new Headers(init?.headers);
  headers.delete('mcp-protocol-version');
  return fetch(url, { ...init, headers });
};

async function connect(
  kind: 'streamable' | 'sse' | 'sse-2024-11-05',
  key: string,
  origin = base,
): Promise<Client> {
  const url = new URL('/v1/mcp', origin);
  const requestInit = { headers: { authorization: `Bearer ${key}` } };
  const transport: Transport =
    kind === 'streamable'
      ? new StreamableHTTPClientTransport(url, { requestInit })
      : new SSEClientTransport(url, {
          requestInit,
          ...(kind === 'sse-2024-11-05' ? { eventSourceInit: { fetch: withoutProtocolVersion } } : {}),
        });
  const client = new Client({ name: 'mcp-flow-test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

/** Opens a legacy stream by hand and reads up to its `endpoint` event. */
async function openLegacyStream(key: string) {
  const controller = new AbortController();
  const res = await fetch(`${base}/v1/mcp`, {
    headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  expect(res.status).toBe(200);
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  let text = '';
  let endpoint: string | undefined;
  while (!endpoint) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the stream ended before its endpoint event: ${text}`);
    text += Buffer.from(value).toString();
    endpoint = /event: endpoint\ndata: (\S+)\n/.exec(text)?.[1];
  }
  return { endpoint, close: () => controller.abort() };
}

beforeAll(async () => {
  testTable = await createTestTable(inject('dynamodbEndpoint'));
  const config = loadConfig('cloud', { ...TEST_ENV, VIGIL_TABLE_NAME: testTable.tableName });
  const serve = async (maxDurationMs: number) => {
    const composed = createCloudApp(config, {
      dynamodb: testTable.client,
      logWrite: () => {},
      mcpSse: { maxDurationMs, pollMs: 100 },
    });
    const listening = createServer(
      forward(createMcpHandler({ ...composed, runtime: fakeStreamingRuntime() })),
    );
    await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
    return { composed, listening, origin: `http://127.0.0.1:${(listening.address() as AddressInfo).port}` };
  };
  const long = await serve(LONG_STREAM_MS);
  ({ composed: cloud, listening: server, origin: base } = long);
  const short = await serve(MAX_STREAM_MS);
  ({ listening: shortServer, origin: shortBase } = short);
  const a = await cloud.app.tenants.createTenant({ name: 'Acme', email: 'ops@acme.test' });
  const b = await cloud.app.tenants.createTenant({ name: 'Globex', email: 'ops@globex.test' });
  keyA = a.rawKey;
  keyB = b.rawKey;
  tenantA = a.tenant.id;
}, 60_000);

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

afterAll(async () => {
  for (const listening of [server, shortServer]) {
    listening?.closeAllConnections();
    await new Promise((resolve) => listening?.close(resolve));
  }
  await testTable?.drop();
});

describe('MCP through the cloud handler (function URL, fake streaming runtime, DynamoDB Local)', () => {
  it('lists a new tenant’s catalog-ops tools and find_tools, over Streamable HTTP', async () => {
    const client = await connect('streamable', keyA);
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(
      [...CATALOG_OPS_MANIFEST.tools.map((t) => t.name), 'find_tools'].sort(),
    );
  });

  it('lists and calls the catalog tools over Streamable HTTP: a new tenant starts with catalog-ops', async () => {
    await call('POST', '/v1/blueprints', keyA, { slug: 'service', name: 'Service' });
    await call('POST', '/v1/blueprints/service/entities', keyA, { slug: 'checkout', name: 'Checkout' });

    const client = await connect('streamable', keyA);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(CATALOG_OPS_MANIFEST.tools.map((t) => t.name)));
    const result = await client.callTool({ name: 'list_entities', arguments: {} });
    expect(result.isError).not.toBe(true);
    expect(JSON.stringify(result.structuredContent)).toContain('checkout');
    expect(result.content).toEqual([expect.objectContaining({ type: 'text' })]);
  });

  it('serves the legacy SSE transport across invocations: the stream in one, each message POST in another', async () => {
    invocations.length = 0;
    const client = await connect('sse', keyA);
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toContain('get_status_summary');
    const summary = await client.callTool({ name: 'get_status_summary', arguments: {} });
    expect(summary.isError).not.toBe(true);
    expect(summary.structuredContent).toEqual(expect.any(Object));

    const streams = invocations.filter((i) => i.method === 'GET' && i.path === '/v1/mcp');
    const posts = invocations.filter((i) => i.method === 'POST' && i.sessionId !== undefined);
    expect(streams.length).toBeGreaterThanOrEqual(1);
    // initialize, notifications/initialized, tools/list, tools/call: each its own invocation,
    // whose answers reached the stream's invocation through the table.
    expect(posts.length).toBeGreaterThanOrEqual(4);
    const sessionId = posts.at(-1)?.sessionId ?? '';
    expect(await getRelaySession(cloud.table, sessionId)).toEqual(
      expect.objectContaining({ tenant_id: tenantA }),
    );
  });

  it('ends a legacy stream before its maximum duration; a 2024-11-05 client reconnects to a new session and goes on', async () => {
    invocations.length = 0;
    const client = await connect('sse-2024-11-05', keyA, shortBase);
    await client.listTools();
    const firstSession = invocations.find((i) => i.sessionId)?.sessionId ?? '';
    // The first stream ends on its own; the SDK's EventSource opens another (a new session).
    await expect
      .poll(() => invocations.filter((i) => i.method === 'GET').length, { timeout: MAX_STREAM_MS + 8000 })
      .toBeGreaterThanOrEqual(2);
    await expect.poll(() => getRelaySession(cloud.table, firstSession)).toBeUndefined();
    // A call whose session ends before its answer is never answered: give each try 3 s.
    await expect
      .poll(
        async () =>
          (await client.callTool({ name: 'list_blueprints', arguments: {} }, { timeout: 3000 })).isError,
      )
      .not.toBe(true);
    const lastSession = invocations.filter((i) => i.sessionId).at(-1)?.sessionId;
    expect(lastSession).toEqual(expect.any(String));
    expect(lastSession).not.toBe(firstSession);
  }, 30_000);

  it("answers 404 to another tenant's key posting to a session, and nothing reaches the stream", async () => {
    const stream = await openLegacyStream(keyA);
    try {
      const message = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
      expect((await call('POST', stream.endpoint, keyB, message)).status).toBe(404);
      expect((await call('POST', stream.endpoint, keyA, message)).status).toBe(202);
    } finally {
      stream.close();
    }
  });

  it('answers 404 to another key of the same tenant posting to a session (a read-only key into an admin session)', async () => {
    const viewer = await call('POST', '/v1/auth/keys', keyA, { label: 'viewer', is_read_only: true });
    expect(viewer.status).toBe(201);
    const stream = await openLegacyStream(keyA);
    try {
      const message = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
      expect(
        (await call('POST', stream.endpoint, (viewer.body as { key: string }).key, message)).status,
      ).toBe(404);
      expect((await call('POST', stream.endpoint, keyA, message)).status).toBe(202);
    } finally {
      stream.close();
    }
  });

  it('serves Streamable HTTP through API Gateway too: the api function answers a POST /v1/mcp in one buffered reply', async () => {
    const viaApiGateway = createCloudApp(
      loadConfig('cloud', { ...TEST_ENV, VIGIL_TABLE_NAME: testTable.tableName }),
      { dynamodb: testTable.client, logWrite: () => {} },
    );
    const api = createApiHandler(viaApiGateway);
    const event = functionUrlEvent('/v1/mcp', {
      authorization: `Bearer ${keyA}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    });
    event.requestContext.http.method = 'POST';
    event.body = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list', params: {} });

    const result = await api(event, lambdaContext('api'));

    expect(result.statusCode).toBe(200);
    const answer = JSON.parse(String(result.body)) as { id: number; result: { tools: { name: string }[] } };
    expect(answer.id).toBe(7);
    expect(answer.result.tools.map((t) => t.name)).toContain('get_status_summary');
  });

  it('answers 401 with WWW-Authenticate: Bearer and a JSON-RPC error to a request without a key', async () => {
    const res = await fetch(`${base}/v1/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(await res.json()).toEqual(expect.objectContaining({ jsonrpc: '2.0', error: expect.any(Object) }));
  });
});
