import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectWithOauth, PUBLIC_URL, TestProvider } from '../oauth/oauth-support.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { enableToolsets } from '../support/toolsets.ts';

/**
 * MCP tool calls of a remote client signed in with OAuth (the official SDK's OAuth client
 * provider), on both runtimes: a write tool is recorded as `mcp.<tool>` with the OAuth client as
 * actor, via mcp; the token exchange names the client too; an admin token reads the log through
 * get_audit_log, a write token's person only when admin was granted. No token is stored.
 */

// biome-ignore lint/suspicious/noExplicitAny: entries are inspected freely
type Entry = any;

describe.each(runtimes)('audit log of OAuth MCP clients ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  const open: Client[] = [];
  let entityId = '';

  beforeAll(async () => {
    api = await start({ env: { VIGIL_PUBLIC_URL: PUBLIC_URL }, scheduler: false });
    await enableToolsets(api, api.adminKey);
    await api.request('POST', '/v1/blueprints', { key: api.adminKey, body: { slug: 'web', name: 'Web' } });
    const entity = await api.request('POST', '/v1/blueprints/web/entities', {
      key: api.adminKey,
      body: { slug: 'shop', name: 'Shop' },
    });
    expect(entity.status, entity.text).toBe(201);
    entityId = entity.body.id;
  });
  afterAll(async () => {
    for (const client of open) await client.close().catch(() => undefined);
    await api.close();
  });

  const entries = async (): Promise<Entry[]> => {
    const res = await api.request('GET', '/v1/audit?limit=200', { key: api.adminKey });
    expect(res.status, res.text).toBe(200);
    return res.body.entries;
  };

  it('records a write tool of an OAuth client as that client, via mcp', async () => {
    const provider = new TestProvider(api, { key: api.adminKey, scopes: ['read', 'write'] });
    const client = await connectWithOauth(api, provider);
    open.push(client);
    const result = (await client.callTool({
      name: 'create_maintenance',
      arguments: {
        name: 'OAuth window',
        entity_ids: [entityId],
        starts_at: '2099-01-01T00:00:00.000Z',
        ends_at: '2099-01-01T01:00:00.000Z',
      },
    })) as CallToolResult;
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const entry = (await entries()).find((e) => e.action === 'mcp.create_maintenance');
    expect(entry).toMatchObject({
      actor: { type: 'oauth_client', id: provider.info?.client_id },
      via: 'mcp',
      target: { type: 'maintenance_window' },
      summary: 'arguments: ends_at, entity_ids, name, starts_at; name: "OAuth window"',
    });
    // A write-scoped token is not admin: the log is refused to it.
    const refused = (await client.callTool({ name: 'get_audit_log', arguments: {} })) as CallToolResult;
    expect(refused.isError).toBe(true);

    const stored = JSON.stringify(
      (await api.table.query({ pk: `AUDIT#${api.tenantId}`, limit: 1000 })).items,
    );
    for (const token of [provider.saved?.access_token, provider.saved?.refresh_token])
      if (token) expect(stored).not.toContain(token);
  });

  it('answers get_audit_log to a token granted admin', async () => {
    const provider = new TestProvider(api, { key: api.adminKey });
    const client = await connectWithOauth(api, provider);
    open.push(client);
    expect(provider.saved?.scope).toBe('read write admin');
    const result = (await client.callTool({
      name: 'get_audit_log',
      arguments: { limit: 5 },
    })) as CallToolResult;
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const data = result.structuredContent as { entries: Entry[] };
    expect(data.entries.map((e) => e.action)).toContain('entity.create');
  });
});
