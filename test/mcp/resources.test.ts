import { Client, SSEClientTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_RUNTIMES, type McpRuntime, rest } from './mcp-runtimes.ts';
import { messages, until } from './sse-messages.ts';

// Resources (vigil://entities, checks, incidents, status pages) and subscriptions/listen on both
// runtimes: the local process and the cloud MCP function behind its function URL (a streamed response).

const MODERN = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'vigil-test', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** A 2026-07-28 POST: the revision in `_meta` and the headers. */
function modernPost(
  rt: McpRuntime,
  key: string,
  id: number,
  method: string,
  params: Record<string, unknown> = {},
) {
  return fetch(rt.url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': method,
      ...(typeof params.uri === 'string' ? { 'mcp-name': params.uri } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: META } }),
  });
}

async function call(rt: McpRuntime, method: string, params: Record<string, unknown> = {}, key = rt.key) {
  const res = await modernPost(rt, key, 1, method, params);
  // biome-ignore lint/suspicious/noExplicitAny: a JSON-RPC answer, read by the assertions
  return { status: res.status, json: (await res.json()) as any };
}

describe.each(MCP_RUNTIMES)('MCP resources and subscriptions (%s)', (_name, start) => {
  let rt: McpRuntime;
  let checkId = '';
  let otherKey = '';
  const entityUri = 'vigil://entities/svc/api';

  beforeAll(async () => {
    rt = await start();
    await rest(rt, '/v1/blueprints', { slug: 'svc', name: 'Service' });
    const entity = await rest(rt, '/v1/blueprints/svc/entities', { slug: 'api', name: 'Public API' });
    const check = { entity_id: entity.id, check_type: 'push', interval_seconds: 3600, failure_threshold: 1 };
    checkId = (await rest(rt, '/v1/checks', { ...check, name: 'Nightly job' })).id;
    await rest(rt, '/v1/status-pages', {
      slug: 'acme-status',
      title: 'Acme status',
      entity_ids: [entity.id],
    });
    // Another tenant, with an entity at an address of its own.
    otherKey = (await rt.createTenant('Other')).key;
    await rest(rt, '/v1/blueprints', { slug: 'svc', name: 'Service' }, otherKey);
    await rest(rt, '/v1/blueprints/svc/entities', { slug: 'secret', name: 'Secret' }, otherKey);
  }, 60_000);
  afterAll(async () => {
    await rt?.close();
  });

  it('lists the four templates with a public cache hint', async () => {
    const res = await call(rt, 'resources/templates/list');
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json.result.resourceTemplates.map((t: { uriTemplate: string }) => t.uriTemplate)).toEqual([
      'vigil://entities/{blueprint}/{slug}',
      'vigil://checks/{id}',
      'vigil://incidents/{id}',
      'vigil://status-pages/{slug}',
    ]);
    expect(res.json.result).toMatchObject({ ttlMs: 3_600_000, cacheScope: 'public' });
  });

  it("lists the tenant's entities, checks and status pages, privately cached", async () => {
    const res = await call(rt, 'resources/list');
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    const uris = res.json.result.resources.map((r: { uri: string }) => r.uri);
    // The status app's views (test/mcp/status-app.test.ts) lead the first page.
    expect(uris).toEqual([
      'ui://vigil/status',
      'ui://vigil/blast-radius',
      entityUri,
      `vigil://checks/${checkId}`,
      'vigil://status-pages/acme-status',
    ]);
    expect(res.json.result).toMatchObject({ ttlMs: 30_000, cacheScope: 'private' });
    expect(res.json.result.nextCursor).toBeUndefined();
  });

  it('refuses a list cursor it did not make', async () => {
    const res = await call(rt, 'resources/list', { cursor: 'nowhere:x' });
    expect(res.json.error).toMatchObject({ code: -32602 });
  });

  it('reads an entity, a check with its recent results and a status page', async () => {
    const entity = await call(rt, 'resources/read', { uri: entityUri });
    expect(entity.json.result).toMatchObject({ ttlMs: 10_000, cacheScope: 'private' });
    const [content] = entity.json.result.contents;
    expect(content).toMatchObject({ uri: entityUri, mimeType: 'application/json' });
    expect(JSON.parse(content.text)).toMatchObject({ slug: 'api', name: 'Public API' });
    const check = await call(rt, 'resources/read', { uri: `vigil://checks/${checkId}` });
    expect(JSON.parse(check.json.result.contents[0].text)).toMatchObject({ id: checkId, recent_results: [] });
    const page = await call(rt, 'resources/read', { uri: 'vigil://status-pages/acme-status' });
    expect(JSON.parse(page.json.result.contents[0].text)).toMatchObject({ title: 'Acme status' });
  });

  it("answers another tenant's resource, and an address that is none, as not found", async () => {
    for (const uri of [
      'vigil://entities/svc/secret',
      'vigil://entities/svc/api/../x',
      'file:///etc/passwd',
    ]) {
      const res = await call(rt, 'resources/read', { uri });
      expect(res.json.error, uri).toMatchObject({ code: -32602 });
    }
    // And the other tenant reads its own.
    const own = await call(rt, 'resources/read', { uri: 'vigil://entities/svc/secret' }, otherKey);
    expect(own.json.result.contents).toHaveLength(1);
  });

  it('serves resources on 2025-11-25 too, with subscriptions on its session (test/mcp/sessions.test.ts)', async () => {
    const client = new Client({ name: 'vigil-test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(rt.url), {
      requestInit: { headers: { authorization: `Bearer ${rt.key}` } },
    });
    await client.connect(transport);
    try {
      expect(client.getServerCapabilities()?.resources).toEqual({ subscribe: true, listChanged: false });
      const listed = await client.listResources();
      expect(listed.resources.map((r) => r.uri)).toContain(entityUri);
      const read = await client.readResource({ uri: entityUri });
      expect(read.contents[0]?.uri).toBe(entityUri);
    } finally {
      await transport.terminateSession();
      await client.close();
    }
  });

  it('serves resources on the legacy SSE transport (2024-11-05): the list, an entity and show_status’s view', async () => {
    // A 2024-11-05 client: its stream's GET carries no MCP-Protocol-Version (a GET that does is
    // a Streamable HTTP GET), which the SDK adds once initialized.
    const withoutProtocolVersion: typeof fetch = (url, init) => {
      const headers = new Headers(init?.headers);
      headers.delete('mcp-protocol-version');
      return fetch(url, { ...init, headers });
    };
    const client = new Client({ name: 'vigil-test', version: '1.0.0' });
    await client.connect(
      new SSEClientTransport(new URL(rt.url), {
        requestInit: { headers: { authorization: `Bearer ${rt.key}` } },
        eventSourceInit: { fetch: withoutProtocolVersion },
      }),
    );
    try {
      // Declared without subscriptions: no stream of this transport would tell them.
      expect(client.getServerCapabilities()?.resources).toEqual({ subscribe: false, listChanged: false });
      const listed = (await client.listResources()).resources.map((r) => r.uri);
      expect(listed).toEqual(expect.arrayContaining(['ui://vigil/status', entityUri]));
      const entity = await client.readResource({ uri: entityUri });
      expect(JSON.parse(String((entity.contents[0] as { text: string }).text))).toMatchObject({
        slug: 'api',
      });
      const { tools } = await client.listTools();
      const view = tools.find((t) => t.name === 'show_status')?._meta?.ui as { resourceUri: string };
      const read = await client.readResource({ uri: view.resourceUri });
      expect(read.contents[0]).toMatchObject({
        uri: 'ui://vigil/status',
        mimeType: 'text/html;profile=mcp-app',
      });
      expect((read.contents[0] as { text: string }).text).toContain('1 entit');
      expect((await client.listResourceTemplates()).resourceTemplates.length).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });

  it('refuses a listen filter naming what cannot be subscribed to, or too many', async () => {
    const check = await call(rt, 'subscriptions/listen', {
      notifications: { resourceSubscriptions: [`vigil://checks/${checkId}`] },
    });
    expect(check.json.error).toMatchObject({ code: -32602 });
    const many = Array.from({ length: 101 }, (_, i) => `vigil://entities/svc/e${i}`);
    const tooMany = await call(rt, 'subscriptions/listen', {
      notifications: { resourceSubscriptions: many },
    });
    expect(tooMany.json.error).toMatchObject({ code: -32602 });
  });

  it('tells a listening agent when a subscribed entity changes, and nothing of another tenant', async () => {
    const theirs = await modernPost(rt, otherKey, 7, 'subscriptions/listen', {
      notifications: { resourceSubscriptions: [entityUri] },
    });
    const res = await modernPost(rt, rt.key, 8, 'subscriptions/listen', {
      notifications: { resourceSubscriptions: [entityUri] },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const stream = messages(res.body as ReadableStream<Uint8Array>);
    const theirStream = messages(theirs.body as ReadableStream<Uint8Array>);
    const ack = await until(stream, (m) => m.method === 'notifications/subscriptions/acknowledged');
    expect(ack.params).toMatchObject({ notifications: { resourceSubscriptions: [entityUri] } });
    await until(theirStream, (m) => m.method === 'notifications/subscriptions/acknowledged');

    const recorded = await rt.app.recorder.record({
      tenantId: rt.tenantId,
      checkId,
      success: false,
      status_code: 503,
      latency_ms: 5,
      error_message: 'exit status 1',
      checkedAtMs: Date.now(),
    });
    expect(recorded.status).toBe('recorded');
    const updated = await until(stream, (m) => m.method === 'notifications/resources/updated');
    expect(updated.params).toMatchObject({
      uri: entityUri,
      _meta: { 'io.modelcontextprotocol/subscriptionId': 8 },
    });
    await stream.return(undefined);

    // The other tenant's stream, subscribed to the same address, heard nothing (its next message
    // would be a keep-alive comment, which is no message, 15 s on).
    const quiet = await Promise.race([
      theirStream.next().then(() => 'heard'),
      new Promise((resolve) => setTimeout(() => resolve('quiet'), 1500).unref()),
    ]);
    expect(quiet).toBe('quiet');
  }, 60_000);

  it('caps open listen streams per key', async () => {
    const open: AsyncGenerator<Record<string, unknown>>[] = [];
    // A tenant of its own, so no stream of another test counts.
    const { key } = await rt.createTenant('Capped');
    try {
      for (let i = 0; i < 5; i++) {
        const res = await modernPost(rt, key, 20 + i, 'subscriptions/listen', {
          notifications: { resourceSubscriptions: [entityUri] },
        });
        expect(res.status).toBe(200);
        const stream = messages(res.body as ReadableStream<Uint8Array>);
        open.push(stream);
        await until(stream, (m) => m.method === 'notifications/subscriptions/acknowledged');
      }
      const refused = await modernPost(rt, key, 30, 'subscriptions/listen', {
        notifications: { resourceSubscriptions: [entityUri] },
      });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('10');
    } finally {
      for (const stream of open) await stream.return(undefined);
    }
  }, 60_000);
});
