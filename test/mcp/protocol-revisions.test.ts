import {
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
} from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { MCP_RUNTIMES, type McpRuntime, mcpRuntimeOf } from './mcp-runtimes.ts';

// The MCP endpoint speaks 2026-07-28 (stateless: no initialize, the revision in every request's
// `_meta`, server/discover, resultType) and 2025-11-25 (initialize, then plain requests), chosen
// per request; both runtimes, raw and through SDK clients of both majors (v1 speaks 2025-11-25
// only; v2 either, as its versionNegotiation says).

const MODERN = '2026-07-28';
const CLIENT_INFO = { name: 'vigil-test', version: '1.0.0' };

/** A 2026-07-28 request: the revision, client info and capabilities in `_meta`, mirrored in headers. */
function modernRequest(id: number, method: string, params: Record<string, unknown> = {}, version = MODERN) {
  return {
    body: {
      jsonrpc: '2.0',
      id,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': version,
          'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    },
    headers: {
      'mcp-protocol-version': version,
      'mcp-method': method,
      ...(typeof params.name === 'string' ? { 'mcp-name': params.name } : {}),
    },
  };
}

async function post(rt: McpRuntime, request: { body: unknown; headers?: Record<string, string> }) {
  const res = await fetch(rt.url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${rt.key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...request.headers,
    },
    body: JSON.stringify(request.body),
  });
  const text = await res.text();
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    json: text ? JSON.parse(text) : null,
  };
}

describe.each(MCP_RUNTIMES)('MCP protocol revisions (%s)', (_name, start) => {
  const runtime = mcpRuntimeOf(start);

  it('answers server/discover with the revision, the tools capability and its name, without initialize', async () => {
    const res = await post(runtime.rt, modernRequest(1, 'server/discover'));
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    // Lists the revisions a client selects by discovery; 2025-era clients initialize instead.
    expect(res.json.result).toMatchObject({
      supportedVersions: [MODERN],
      capabilities: { tools: {} },
      resultType: 'complete',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'vigil' } },
    });
  });

  it('lists tools and calls one with the revision in each request', async () => {
    const list = await post(runtime.rt, modernRequest(2, 'tools/list'));
    expect(list.status, JSON.stringify(list.json)).toBe(200);
    expect(list.json.result.resultType).toBe('complete');
    expect(list.json.result.tools.map((t: { name: string }) => t.name)).toContain('get_status_summary');
    const call = await post(
      runtime.rt,
      modernRequest(3, 'tools/call', { name: 'get_status_summary', arguments: {} }),
    );
    expect(call.status, JSON.stringify(call.json)).toBe(200);
    expect(call.json.result).toMatchObject({ resultType: 'complete', structuredContent: { total: 0 } });
    expect(call.json.result.isError ?? false).toBe(false);
    expect(call.json.result.content[0].type).toBe('text');
  });

  it('answers a keyless request 401 with that request’s id, and a batch or a GET with none', async () => {
    const keyless = async (body: unknown) => {
      const res = await fetch(runtime.rt.url, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer resource_metadata=/);
      return (await res.json()) as { id: unknown; error: { code: number } };
    };
    for (const id of [7, 'call-7']) {
      const answer = await keyless({ ...modernRequest(0, 'tools/list').body, id });
      expect(answer).toMatchObject({ id, error: { code: -32001 } });
    }
    const initialize = {
      jsonrpc: '2.0',
      id: 'init',
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: CLIENT_INFO },
    };
    expect((await keyless(initialize)).id).toBe('init');
    expect((await keyless([initialize, { ...initialize, id: 2 }])).id).toBeNull();
    expect((await keyless({ jsonrpc: '2.0', method: 'notifications/initialized' })).id).toBeNull();
    expect((await keyless(undefined)).id).toBeNull();
  });

  it('answers logging/setLevel on 2025-11-25 (a level that is none: -32602), and declares logging only there', async () => {
    const legacy = (id: number, method: string, params: Record<string, unknown>) => ({
      body: { jsonrpc: '2.0', id, method, params },
      headers: { 'mcp-protocol-version': '2025-11-25' },
    });
    const set = await post(runtime.rt, legacy(1, 'logging/setLevel', { level: 'warning' }));
    expect(set.json).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    const bad = await post(runtime.rt, legacy(2, 'logging/setLevel', { level: 'loud' }));
    expect(bad.json.error.code).toBe(-32602);
    const init = await post(runtime.rt, {
      body: {
        jsonrpc: '2.0',
        id: 3,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: CLIENT_INFO },
      },
    });
    expect(init.json.result.capabilities).toMatchObject({ logging: {}, completions: {} });
    const discover = await post(runtime.rt, modernRequest(4, 'server/discover'));
    expect(discover.json.result.capabilities.completions).toEqual({});
    expect(discover.json.result.capabilities.logging).toBeUndefined();
    // completion/complete without its argument: -32602, on either revision.
    const ref = { type: 'ref/prompt', name: 'triage_incident' };
    const incomplete = await post(runtime.rt, modernRequest(5, 'completion/complete', { ref }));
    expect(incomplete.json.error.code).toBe(-32602);
    expect((await post(runtime.rt, legacy(6, 'completion/complete', { ref }))).json.error.code).toBe(-32602);
  });

  it('refuses a revision it does not speak with the spec error naming the ones it does', async () => {
    const res = await post(runtime.rt, modernRequest(4, 'tools/list', {}, '2099-01-01'));
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({
      id: 4,
      error: { code: -32022, data: { supported: [MODERN], requested: '2099-01-01' } },
    });
  });

  it('acknowledges a listen for changes it never tells with an empty filter and ends the stream', async () => {
    // Tools and prompts do not change under a connection here (no listChanged capability).
    const request = modernRequest(6, 'subscriptions/listen', { notifications: { toolsListChanged: true } });
    const res = await fetch(runtime.rt.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${runtime.rt.key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...request.headers,
      },
      body: JSON.stringify(request.body),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    // The whole stream: the acknowledgement, then the graceful end (an empty result), then its close.
    const frames = (await res.text())
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => JSON.parse(line.slice(5)));
    expect(frames).toMatchObject([
      { method: 'notifications/subscriptions/acknowledged', params: { notifications: {} } },
      { id: 6, result: { resultType: 'complete' } },
    ]);
  });

  it('refuses a 2025-era request naming an unknown revision in MCP-Protocol-Version', async () => {
    const res = await post(runtime.rt, {
      body: { jsonrpc: '2.0', id: 5, method: 'tools/list', params: {} },
      headers: { 'mcp-protocol-version': '1999-01-01' },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toContain('supported versions: 2025-11-25');
  });

  it('serves an SDK v2 client on 2026-07-28 (server/discover, no initialize)', async () => {
    const client = new ClientV2(CLIENT_INFO, { versionNegotiation: { mode: { pin: MODERN } } });
    runtime.keep(client);
    await client.connect(
      new TransportV2(new URL(runtime.rt.url), {
        requestInit: { headers: { authorization: `Bearer ${runtime.rt.key}` } },
      }),
    );
    expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
    const result = await client.callTool({ name: 'get_status_summary', arguments: {} });
    expect(result.isError ?? false).toBe(false);
  });

  it('serves an SDK v2 client on 2025-11-25 (initialize)', async () => {
    const client = new ClientV2(CLIENT_INFO);
    runtime.keep(client);
    await client.connect(
      new TransportV2(new URL(runtime.rt.url), {
        requestInit: { headers: { authorization: `Bearer ${runtime.rt.key}` } },
      }),
    );
    expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    const result = await client.callTool({ name: 'get_status_summary', arguments: {} });
    expect(result.isError ?? false).toBe(false);
  });

  it('serves an SDK v1 client (2025-11-25)', async () => {
    const client = new ClientV1(CLIENT_INFO);
    runtime.keep(client);
    await client.connect(
      new TransportV1(new URL(runtime.rt.url), {
        requestInit: { headers: { authorization: `Bearer ${runtime.rt.key}` } },
      }),
    );
    expect(client.getServerVersion()?.name).toBe('vigil');
    const result = await client.callTool({ name: 'get_status_summary', arguments: {} });
    expect(result.isError ?? false).toBe(false);
  });
});
