import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { hashApiKey } from '../../lib/auth/api-key.ts';
import { createMcpSessions, MAX_SESSION_SUBSCRIPTIONS } from '../../lib/mcp/sessions/sessions.ts';
import { MCP_RUNTIMES, type McpRuntime, mcpRuntimeOf, rest } from './mcp-runtimes.ts';

// 2025-era Streamable HTTP sessions on both runtimes (the local process, and the cloud MCP function
// behind its function URL over DynamoDB Local): initialize opens one (Mcp-Session-Id), later
// requests carry it, resources/subscribe keeps URIs on it, the session's GET stream tells changes,
// DELETE ends it.

const REVISION = '2025-11-25';

function headersOf(key: string, sessionId?: string): Record<string, string> {
  return {
    authorization: `Bearer ${key}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    ...(sessionId === undefined ? {} : { 'mcp-session-id': sessionId, 'mcp-protocol-version': REVISION }),
  };
}

/** A raw `initialize`: the session id it answers. */
async function initialize(rt: McpRuntime, key: string): Promise<string> {
  const res = await fetch(rt.url, {
    method: 'POST',
    headers: headersOf(key),
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: REVISION,
        capabilities: {},
        clientInfo: { name: 'vigil-test', version: '1.0.0' },
      },
    }),
  });
  expect(res.status).toBe(200);
  await res.text();
  const id = res.headers.get('mcp-session-id');
  if (id === null) throw new Error('initialize answered no Mcp-Session-Id');
  return id;
}

/** A request of a session. */
async function sessionCall(
  rt: McpRuntime,
  key: string,
  sessionId: string,
  method: string,
  params: Record<string, unknown> = {},
) {
  const res = await fetch(rt.url, {
    method: 'POST',
    headers: headersOf(key, sessionId),
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method, params }),
  });
  // biome-ignore lint/suspicious/noExplicitAny: a JSON-RPC answer, read by the assertions
  return { status: res.status, json: (await res.json()) as any };
}

/** The first `value()` that is defined, within 20 s (bounded: a test waits for what it reads). */
async function eventually<T>(
  value: () => T | undefined,
  nudge: () => Promise<void> = async () => {},
): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const found = value();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error('not within 20 s');
    await nudge();
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe.each(MCP_RUNTIMES)('MCP sessions on the 2025 revisions (%s)', (_name, start) => {
  const runtime = mcpRuntimeOf(start);
  const checks: Record<string, string> = {};
  let failing = false;

  /** The entity's check reports the other way from last time: a transition of `slug`. */
  const flip = async (slug: string) => {
    const rt = runtime.rt;
    failing = !failing;
    const checkId = checks[slug];
    if (checkId === undefined) throw new Error(`no check of ${slug}`);
    await rt.app.recorder.record({
      tenantId: rt.tenantId,
      checkId,
      success: !failing,
      status_code: failing ? 503 : 200,
      latency_ms: 5,
      error_message: failing ? 'exit status 1' : '',
      checkedAtMs: Date.now(),
    });
  };

  it('opens a session, subscribes an SDK client to an entity, tells its changes and stops after unsubscribe', async () => {
    const rt = runtime.rt;
    await rest(rt, '/v1/blueprints', { slug: 'svc', name: 'Service' });
    for (const slug of ['api', 'web']) {
      const entity = await rest(rt, '/v1/blueprints/svc/entities', { slug, name: slug });
      const check = {
        entity_id: entity.id,
        check_type: 'push',
        interval_seconds: 3600,
        failure_threshold: 1,
      };
      checks[slug] = (await rest(rt, '/v1/checks', { ...check, name: `${slug} job` })).id;
    }
    const transport = new StreamableHTTPClientTransport(new URL(rt.url), {
      requestInit: { headers: { Authorization: `Bearer ${rt.key}` } },
    });
    const client = runtime.keep(new Client({ name: 'vigil-test', version: '1.0.0' }));
    const updated: string[] = [];
    client.setNotificationHandler('notifications/resources/updated', (n) => {
      updated.push(n.params.uri);
    });
    await client.connect(transport);
    expect(transport.sessionId).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(client.getServerCapabilities()?.resources?.subscribe).toBe(true);

    await client.subscribeResource({ uri: 'vigil://entities/svc/api' });
    // The client opens its GET stream on its own after initialize: a change is told once it is open.
    await eventually(
      () => (updated.includes('vigil://entities/svc/api') ? true : undefined),
      () => flip('api'),
    );

    await client.unsubscribeResource({ uri: 'vigil://entities/svc/api' });
    await client.subscribeResource({ uri: 'vigil://entities/svc/web' });
    updated.length = 0;
    await flip('api');
    await flip('web');
    await eventually(() => (updated.includes('vigil://entities/svc/web') ? true : undefined));
    // Changes are told in order: api's came first, and was not told.
    expect(updated).toEqual(['vigil://entities/svc/web']);
    await transport.terminateSession();
  }, 60_000);

  it("answers 404 to another tenant's or another key's session, and to one DELETE ended", async () => {
    const rt = runtime.rt;
    const sessionId = await initialize(rt, rt.key);
    expect((await sessionCall(rt, rt.key, sessionId, 'tools/list')).status).toBe(200);
    const other = await rt.createTenant('Elsewhere');
    const theirs = await sessionCall(rt, other.key, sessionId, 'tools/list');
    expect(theirs.status).toBe(404);
    expect(theirs.json.error.code).toBe(-32001);
    const refusedDelete = await fetch(rt.url, { method: 'DELETE', headers: headersOf(other.key, sessionId) });
    expect(refusedDelete.status).toBe(404);

    const ended = await fetch(rt.url, { method: 'DELETE', headers: headersOf(rt.key, sessionId) });
    expect(ended.status).toBe(204);
    expect((await sessionCall(rt, rt.key, sessionId, 'tools/list')).status).toBe(404);
    const again = await fetch(rt.url, { method: 'DELETE', headers: headersOf(rt.key, sessionId) });
    expect(again.status).toBe(404);
    const stream = await fetch(rt.url, {
      headers: { ...headersOf(rt.key, sessionId), accept: 'text/event-stream' },
    });
    expect(stream.status).toBe(404);
  });

  it('answers 404 to an expired session', async () => {
    const rt = runtime.rt;
    const me = await sessionCall(rt, rt.key, await initialize(rt, rt.key), 'tools/list');
    expect(me.status).toBe(200);
    // A session opened two hours ago by the same owner module, on the runtime's own table.
    const past = createMcpSessions({ table: rt.table, clock: { now: () => Date.now() - 7_200_000 } });
    const found = await rt.app.keys.findByHash(hashApiKey(rt.key));
    if (!found) throw new Error('the runtime key is not stored');
    const owner = {
      tenantId: rt.tenantId,
      userId: 'usr_test',
      keyId: found.key_id,
      role: 'admin',
      readOnly: false,
    } as const;
    const old = await past.open(owner, { protocolVersion: REVISION, clientCapabilities: {} });
    const res = await sessionCall(rt, rt.key, old, 'tools/list');
    expect(res.status).toBe(404);
  });

  it('refuses subscriptions past the cap, and what cannot be subscribed to', async () => {
    const rt = runtime.rt;
    const sessionId = await initialize(rt, rt.key);
    const check = await sessionCall(rt, rt.key, sessionId, 'resources/subscribe', {
      uri: 'vigil://checks/chk_01ARZ3NDEKTSV4RRFFQ69G5FAV',
    });
    expect(check.json.error.code).toBe(-32602);
    for (let i = 0; i < MAX_SESSION_SUBSCRIPTIONS; i++) {
      const ok = await sessionCall(rt, rt.key, sessionId, 'resources/subscribe', {
        uri: `vigil://entities/svc/e${i}`,
      });
      expect(ok.json.result, JSON.stringify(ok.json)).toEqual({});
    }
    const full = await sessionCall(rt, rt.key, sessionId, 'resources/subscribe', {
      uri: 'vigil://entities/svc/one-more',
    });
    expect(full.json.error.code).toBe(-32602);
    expect(full.json.error.message).toContain(`at most ${MAX_SESSION_SUBSCRIPTIONS}`);
    // Subscribing again to one it holds changes nothing.
    const same = await sessionCall(rt, rt.key, sessionId, 'resources/subscribe', {
      uri: 'vigil://entities/svc/e0',
    });
    expect(same.json.result).toEqual({});
  }, 120_000);

  it('caps open session streams per key (429 with Retry-After)', async () => {
    const rt = runtime.rt;
    // A tenant of its own, so no stream of another test counts.
    const { key } = await rt.createTenant('Capped');
    const open: Response[] = [];
    try {
      for (let i = 0; i < 5; i++) {
        const sessionId = await initialize(rt, key);
        const res = await fetch(rt.url, {
          headers: { ...headersOf(key, sessionId), accept: 'text/event-stream' },
        });
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toContain('text/event-stream');
        open.push(res);
      }
      const sixth = await initialize(rt, key);
      const refused = await fetch(rt.url, {
        headers: { ...headersOf(key, sixth), accept: 'text/event-stream' },
      });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('10');
    } finally {
      for (const res of open) await res.body?.cancel();
    }
  }, 60_000);

  it('keeps answering a Streamable HTTP GET without a session 405', async () => {
    const rt = runtime.rt;
    const res = await fetch(rt.url, {
      headers: {
        authorization: `Bearer ${rt.key}`,
        accept: 'text/event-stream',
        'mcp-protocol-version': REVISION,
      },
    });
    expect(res.status).toBe(405);
  });
});
