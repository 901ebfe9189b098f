import type { Transport } from '@modelcontextprotocol/client';
import { Client, SSEClientTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG_OPS_MANIFEST } from '../../lib/features/feature-routes.ts';
import { type LocalHarness, startLocalHarness } from '../support/api-harness.ts';
import { enableToolsets, TOOLSET_TOOL_NAMES } from '../support/toolsets.ts';
import { WRITING_TOOLS } from './agent.ts';

const transports = {
  streamable: (url: URL, key: string) =>
    new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: `Bearer ${key}` } } }),
  sse: (url: URL, key: string) =>
    new SSEClientTransport(url, { requestInit: { headers: { Authorization: `Bearer ${key}` } } }),
} satisfies Record<string, (url: URL, key: string) => Transport>;

describe.each(Object.entries(transports))('MCP over %s (local runtime)', (_name, transport) => {
  let api: LocalHarness;
  let readOnlyKey: string;
  const open: Client[] = [];

  const connect = async (key = api.adminKey) => {
    const client = new Client({ name: 'vigil-test', version: '1.0.0' });
    await client.connect(transport(new URL('/v1/mcp', api.local.url), key));
    open.push(client);
    return client;
  };

  beforeAll(async () => {
    api = await startLocalHarness({ scheduler: false });
    readOnlyKey = (
      await api.request('POST', '/v1/auth/keys', {
        key: api.adminKey,
        body: { label: 'viewer', is_read_only: true },
      })
    ).body.key;
  });
  afterAll(async () => {
    for (const client of open) await client.close();
    await api.close();
  });

  it('lists catalog-ops and find_tools for a new tenant, then every toolset’s tools with annotations', async () => {
    const client = await connect();
    const first = (await client.listTools()).tools.map((t) => t.name);
    expect(first).toEqual([...CATALOG_OPS_MANIFEST.tools.map((t) => t.name), 'find_tools'].sort());
    await enableToolsets(api, api.adminKey);
    const { tools, nextCursor } = await client.listTools();
    expect(nextCursor).toBeUndefined();
    expect(tools.map((t) => t.name)).toEqual([...TOOLSET_TOOL_NAMES, 'find_tools'].sort());
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.annotations?.readOnlyHint).toBe(!WRITING_TOOLS.includes(tool.name));
    }
  });

  it('calls get_status_summary and answers structured content with a text block', async () => {
    const client = await connect();
    const result = await client.callTool({ name: 'get_status_summary', arguments: {} });
    expect(result.isError ?? false).toBe(false);
    expect(result.structuredContent).toBeTypeOf('object');
    const content = result.content as Array<{ type: string; text?: string }>;
    expect(content.some((block) => block.type === 'text' && (block.text ?? '').length > 0)).toBe(true);
  });

  it('answers an unknown tool with JSON-RPC error -32602', async () => {
    const client = await connect();
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toMatchObject({
      code: -32602,
    });
  });

  it('hides create_check from a read-only key and refuses the call', async () => {
    const client = await connect(readOnlyKey);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('get_status_summary');
    expect(names).not.toContain('create_check');
    await expect(
      client.callTool({
        name: 'create_check',
        arguments: { entity_id: 'ent_x', target_url: 'http://127.0.0.1:9/' },
      }),
    ).rejects.toMatchObject({ code: -32602 });
    const checks = await api.request('GET', '/v1/checks', { key: api.adminKey });
    expect(checks.status).toBe(200);
    expect(checks.body).toEqual([]);
  });

  it('calls explain_alerting with a read-only key: the decisions as data and in words', async () => {
    const call = async (path: string, body: unknown) =>
      (await api.request('POST', path, { key: api.adminKey, body })).body;
    await call('/v1/blueprints', { slug: 'explained', name: 'Explained' });
    const entity = await call('/v1/blueprints/explained/entities', { slug: 'e', name: 'Explained E' });
    const check = await call('/v1/checks', {
      entity_id: entity.id,
      check_type: 'push',
      interval_seconds: 60,
    });
    const client = await connect(readOnlyKey);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('explain_alerting');
    const result = await client.callTool({
      name: 'explain_alerting',
      arguments: { check_id: check.id, to_state: 'down' },
    });
    expect(result.isError ?? false).toBe(false);
    expect(result.structuredContent).toMatchObject({
      entity: { id: entity.id, state: 'unknown' },
      decisions: [{ check_id: check.id, channel_id: null, outcome: 'skip', reason: 'no channels' }],
    });
    const content = result.content as Array<{ type: string; text?: string }>;
    expect(content[0]?.text).toContain('If Explained E (now unknown) changed to down now');
  });

  it("shows another tenant none of this tenant's tools", async () => {
    const other = await api.createTenant('other');
    const client = await connect(other.key);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(
      [...CATALOG_OPS_MANIFEST.tools.map((t) => t.name), 'find_tools'].sort(),
    );
  });

  it("drops a disabled skill's tools and brings them back when it is enabled", async () => {
    const client = await connect();
    const disable = await api.request('PUT', '/v1/skills/catalog-ops', {
      key: api.adminKey,
      body: { enabled: false },
    });
    expect(disable.status, disable.text).toBe(200);
    const left = (await client.listTools()).tools.map((t) => t.name);
    expect(left).not.toContain('get_status_summary');
    expect(left).toContain('find_tools');
    await expect(client.callTool({ name: 'get_status_summary', arguments: {} })).rejects.toMatchObject({
      code: -32602,
    });
    await api.request('PUT', '/v1/skills/catalog-ops', { key: api.adminKey, body: { enabled: true } });
    expect((await client.listTools()).tools.length).toBe(TOOLSET_TOOL_NAMES.length + 1);
  });
});

describe('the /v1/mcp endpoint over HTTP (local runtime)', () => {
  let api: LocalHarness;
  const url = () => new URL('/v1/mcp', api.local.url);

  beforeAll(async () => {
    api = await startLocalHarness({ scheduler: false });
  });
  afterAll(async () => {
    await api.close();
  });

  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  };

  it('answers 401 with WWW-Authenticate: Bearer naming the resource metadata and a JSON-RPC error, without a key or with a bad one', async () => {
    const expected = `Bearer resource_metadata="${new URL('/.well-known/oauth-protected-resource', api.local.url)}"`;
    for (const authorization of [undefined, 'Bearer vk_not_a_key']) {
      const res = await fetch(url(), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(authorization ? { authorization } : {}),
        },
        body: JSON.stringify(initialize),
      });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe(expected);
      const body = (await res.json()) as { error: { message: unknown } };
      // The answer to the request it refuses (JSON-RPC 2.0 5: the id of the request).
      expect(body).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: -32001 } });
      expect(body.error.message).toBeTypeOf('string');
    }
    const get = await fetch(url(), { headers: { accept: 'text/event-stream' } });
    expect(get.status).toBe(401);
    expect(get.headers.get('www-authenticate')).toBe(expected);
  });

  it('answers 405 to a Streamable HTTP GET without a session, and 404 to one naming no session', async () => {
    const res = await fetch(url(), {
      headers: {
        authorization: `Bearer ${api.adminKey}`,
        accept: 'text/event-stream',
        'mcp-protocol-version': '2025-06-18',
      },
    });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST, DELETE');
    expect(((await res.json()) as { jsonrpc: string }).jsonrpc).toBe('2.0');
    const unknown = await fetch(url(), {
      headers: {
        authorization: `Bearer ${api.adminKey}`,
        accept: 'text/event-stream',
        'mcp-session-id': 'abc',
      },
    });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { code: number } }).error.code).toBe(-32001);
  });

  it("answers 404 to another tenant's key posting to a session, and the session keeps working", async () => {
    const stream = await fetch(url(), {
      headers: { authorization: `Bearer ${api.adminKey}`, accept: 'text/event-stream' },
    });
    expect(stream.status).toBe(200);
    const reader = (stream.body as ReadableStream<Uint8Array>)
      .pipeThrough(new TextDecoderStream())
      .getReader();
    let text = '';
    while (!text.includes('\n\n')) text += (await reader.read()).value ?? '';
    const endpoint = /event: endpoint\ndata: (\S+)\n/.exec(text)?.[1];
    expect(endpoint).toMatch(/^\/v1\/mcp\?sessionId=[0-9a-f-]{36}$/);
    const post = (key: string) =>
      fetch(new URL(endpoint as string, api.local.url), {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(initialize),
      });

    const other = await api.createTenant('intruder');
    const denied = await post(other.key);
    expect(denied.status).toBe(404);
    const unknown = await fetch(
      new URL('/v1/mcp?sessionId=00000000-0000-4000-8000-000000000000', api.local.url),
      {
        method: 'POST',
        headers: { authorization: `Bearer ${api.adminKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(initialize),
      },
    );
    expect(unknown.status).toBe(404);

    const accepted = await post(api.adminKey);
    expect(accepted.status).toBe(202);
    while (!text.includes('event: message')) text += (await reader.read()).value ?? '';
    while (!text.slice(text.indexOf('event: message')).includes('\n\n'))
      text += (await reader.read()).value ?? '';
    const data = /event: message\ndata: (.+)\n/.exec(text)?.[1];
    expect(JSON.parse(data as string)).toMatchObject({
      jsonrpc: '2.0',
      id: 1,
      result: { serverInfo: { name: 'vigil' } },
    });
    await reader.cancel();
  });

  it('answers 404 to another key of the same tenant posting to a session: a session follows the key that opened it', async () => {
    const viewer = await api.request('POST', '/v1/auth/keys', {
      key: api.adminKey,
      body: { label: 'viewer', is_read_only: true },
    });
    const stream = await fetch(url(), {
      headers: { authorization: `Bearer ${api.adminKey}`, accept: 'text/event-stream' },
    });
    const reader = (stream.body as ReadableStream<Uint8Array>)
      .pipeThrough(new TextDecoderStream())
      .getReader();
    let text = '';
    while (!text.includes('\n\n')) text += (await reader.read()).value ?? '';
    const endpoint = /event: endpoint\ndata: (\S+)\n/.exec(text)?.[1] ?? '';
    const post = (key: string) =>
      fetch(new URL(endpoint, api.local.url), {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/list', params: {} }),
      });

    const intruder = await post(viewer.body.key);
    const owner = await post(api.adminKey);
    while (!text.includes('event: message')) text += (await reader.read()).value ?? '';
    while (!text.slice(text.indexOf('event: message')).includes('\n\n'))
      text += (await reader.read()).value ?? '';
    await reader.cancel();

    expect(intruder.status).toBe(404);
    expect(owner.status).toBe(202);
    // Only the owner's message was run in the session: one answer, to its id.
    expect(text.match(/event: message/g)).toHaveLength(1);
    expect(text).toContain('"id":5');
  });
});
