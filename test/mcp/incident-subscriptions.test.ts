import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { incidentIdOf } from '../../lib/incidents/incident-items.ts';
import { newId } from '../../lib/platform/ids.ts';
import { MCP_RUNTIMES, type McpRuntime, mcpRuntimeOf, rest } from './mcp-runtimes.ts';
import { messages, until } from './sse-messages.ts';

// A subscribed incident is told when a person changes it (acknowledged, a note, resolved by hand),
// on both runtimes (the local process pushes from its change feed, the cloud MCP function polls the
// tenant's incident changes): on 2025-11-25 as notifications/resources/updated on the session's GET
// stream, on 2026-07-28 on a subscriptions/listen stream. Another incident, or another tenant's, is
// not told.

const MODERN = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'vigil-test', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

interface Tenant {
  tenantId: string;
  key: string;
}

/** An open incident of a new entity `slug` of the tenant (its down transition applied as the change feed would); its URI. */
async function openIncident(
  rt: McpRuntime,
  tenant: Tenant,
  slug: string,
): Promise<{ id: string; uri: string }> {
  const entity = await rest(rt, '/v1/blueprints/svc/entities', { slug, name: slug }, tenant.key);
  const transitionId = newId('trn');
  await rt.app.incidents.apply({
    id: transitionId,
    tenant_id: tenant.tenantId,
    kind: 'entity',
    entity_id: entity.id,
    entity_name: slug,
    check_id: newId('chk'),
    from_state: 'up',
    to_state: 'down',
    reason: 'exit status 1',
    created_at: new Date().toISOString(),
  });
  const id = incidentIdOf(transitionId);
  return { id, uri: `vigil://incidents/${id}` };
}

const note = (rt: McpRuntime, tenant: Tenant, id: string) =>
  rest(rt, `/v1/incidents/${id}/notes`, { text: 'looking into it' }, tenant.key);

/** The first `value()` that is defined, within 20 s (bounded: a test waits for what it reads). */
async function eventually<T>(value: () => T | undefined, nudge: () => Promise<unknown>): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const found = value();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error('not within 20 s');
    await nudge();
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A 2025-11-25 SDK client of `key` (it opens its session's GET stream itself) and the URIs told to it. */
async function sessionClient(rt: McpRuntime, key: string) {
  const transport = new StreamableHTTPClientTransport(new URL(rt.url), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
  });
  const client = new Client({ name: 'vigil-test', version: '1.0.0' });
  const updated: string[] = [];
  client.setNotificationHandler('notifications/resources/updated', (n) => {
    updated.push(n.params.uri);
  });
  await client.connect(transport);
  return { client, transport, updated };
}

/** Waits until `updated` holds a change of `uri`: the client's GET stream is open. */
const streamOpen = (updated: string[], uri: string, nudge: () => Promise<unknown>) =>
  eventually(() => (updated.includes(uri) ? true : undefined), nudge);

/** A 2026-07-28 subscriptions/listen stream of `key` for `uris`, once acknowledged. */
async function listen(rt: McpRuntime, key: string, id: number, uris: string[]) {
  const res = await fetch(rt.url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': 'subscriptions/listen',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'subscriptions/listen',
      params: { notifications: { resourceSubscriptions: uris }, _meta: META },
    }),
  });
  expect(res.status).toBe(200);
  const stream = messages(res.body as ReadableStream<Uint8Array>);
  await until(stream, (m) => m.method === 'notifications/subscriptions/acknowledged');
  return stream;
}

const nextUpdated = async (stream: AsyncGenerator<Record<string, unknown>>) =>
  ((await until(stream, (m) => m.method === 'notifications/resources/updated')).params as { uri: string })
    .uri;

describe.each(MCP_RUNTIMES)('MCP incident subscriptions (%s)', (_name, start) => {
  // Streams as long as the MCP function holds them: a change made while a session stream reconnects is not told.
  const runtime = mcpRuntimeOf(() => start({ functionStreams: true }));
  let ours: Tenant;
  let theirs: Tenant;

  const tenants = async () => {
    const rt = runtime.rt;
    if (ours) return;
    ours = { tenantId: rt.tenantId, key: rt.key };
    theirs = await rt.createTenant('Other');
    for (const t of [ours, theirs]) await rest(rt, '/v1/blueprints', { slug: 'svc', name: 'Service' }, t.key);
  };

  it('tells a 2025-11-25 session when its subscribed incident is noted, acknowledged and resolved, and nothing else', async () => {
    await tenants();
    const rt = runtime.rt;
    const [probe, a, b, c] = [
      await openIncident(rt, ours, 'probe'),
      await openIncident(rt, ours, 'a'),
      await openIncident(rt, ours, 'b'),
      await openIncident(rt, ours, 'c'),
    ];
    const [theirProbe, x] = [await openIncident(rt, theirs, 'probe'), await openIncident(rt, theirs, 'x')];
    const mine = await sessionClient(rt, ours.key);
    const other = await sessionClient(rt, theirs.key);
    runtime.keep(mine.client);
    runtime.keep(other.client);

    // The streams are open once a probe incident's note is told; then the probes are left, so a
    // late probe note is not told in what follows (a session's subscriptions are read per change).
    await mine.client.subscribeResource({ uri: probe.uri });
    await other.client.subscribeResource({ uri: theirProbe.uri });
    await streamOpen(mine.updated, probe.uri, () => note(rt, ours, probe.id));
    await streamOpen(other.updated, theirProbe.uri, () => note(rt, theirs, theirProbe.id));
    await mine.client.unsubscribeResource({ uri: probe.uri });
    await other.client.unsubscribeResource({ uri: theirProbe.uri });
    await mine.client.subscribeResource({ uri: a.uri });
    await mine.client.subscribeResource({ uri: c.uri });
    await other.client.subscribeResource({ uri: x.uri });
    // Another tenant's incident cannot be subscribed to: it is not found.
    await expect(other.client.subscribeResource({ uri: a.uri })).rejects.toThrow();
    mine.updated.length = 0;
    other.updated.length = 0;

    // Changes are told in order: b's note came first, and told nothing (nor c, which did not change).
    await note(rt, ours, b.id);
    await note(rt, ours, a.id);
    await eventually(
      () => (mine.updated.length > 0 ? true : undefined),
      async () => {},
    );
    expect(mine.updated).toEqual([a.uri]);

    mine.updated.length = 0;
    expect((await rest(rt, `/v1/incidents/${a.id}/acknowledge`, {}, ours.key)).state).toBe('acknowledged');
    await eventually(
      () => (mine.updated.length > 0 ? true : undefined),
      async () => {},
    );
    expect(mine.updated).toEqual([a.uri]);

    mine.updated.length = 0;
    expect((await rest(rt, `/v1/incidents/${a.id}/resolve`, {}, ours.key)).state).toBe('resolved');
    await eventually(
      () => (mine.updated.length > 0 ? true : undefined),
      async () => {},
    );
    expect(mine.updated).toEqual([a.uri]);

    // The other tenant heard none of ours, which came before its own incident's note.
    await note(rt, theirs, x.id);
    await eventually(
      () => (other.updated.length > 0 ? true : undefined),
      async () => {},
    );
    expect(other.updated).toEqual([x.uri]);
    await mine.transport.terminateSession();
    await other.transport.terminateSession();
  }, 90_000);

  it('tells a 2026-07-28 listen stream when its subscribed incident is noted, acknowledged and resolved, and nothing else', async () => {
    await tenants();
    const rt = runtime.rt;
    const [a, b] = [await openIncident(rt, ours, 'a2'), await openIncident(rt, ours, 'b2')];
    const x = await openIncident(rt, theirs, 'x2');
    const stream = await listen(rt, ours.key, 8, [a.uri]);
    // The other tenant names our incident too: not found in its tenant, it is never told.
    const theirStream = await listen(rt, theirs.key, 9, [a.uri, x.uri]);
    try {
      await note(rt, ours, b.id);
      await note(rt, ours, a.id);
      expect(await nextUpdated(stream)).toBe(a.uri);
      await rest(rt, `/v1/incidents/${a.id}/acknowledge`, {}, ours.key);
      expect(await nextUpdated(stream)).toBe(a.uri);
      await rest(rt, `/v1/incidents/${a.id}/resolve`, {}, ours.key);
      expect(await nextUpdated(stream)).toBe(a.uri);

      await note(rt, theirs, x.id);
      expect(await nextUpdated(theirStream)).toBe(x.uri);
    } finally {
      await stream.return(undefined);
      await theirStream.return(undefined);
    }
  }, 90_000);
});
