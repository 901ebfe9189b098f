import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSdkClient } from '../mcp/sdk-client.ts';
import { csrfOf, GOOD_PASSWORD, setPassword, signedIn, withCookie } from '../people/session-helpers.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { providerEgress } from '../support/receivers/provider-host.ts';
import { enableToolsets } from '../support/toolsets.ts';

/**
 * The audit log from every entry point, on both runtimes: an API key's writes (and the CLI's, by
 * its user agent), an operator command, an agent's version change, MCP write tools through the
 * official SDK client; what each entry names (actor, via, action, target, redacted summary, source
 * address); secrets in bodies never stored; filters and paging; admins only; tenants apart.
 */

const TELEGRAM_TOKEN = '123456:telegram-bot-token-SECRET';
const ACTION_HEADER = 'Bearer action-header-SECRET';

// biome-ignore lint/suspicious/noExplicitAny: entries are inspected freely
type Entry = any;

describe.each(runtimes)('audit log ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let mcp: Client;
  let entityId = '';
  let keyId = '';
  let keyPrefix = '';

  const write = async (method: string, path: string, body?: unknown, headers?: Record<string, string>) => {
    const res = await api.request(method, path, { key: api.adminKey, body, ...(headers ? { headers } : {}) });
    expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
    return res.body;
  };
  const audit = async (query = '', key = api.adminKey) => {
    const res = await api.request('GET', `/v1/audit${query}`, { key });
    expect(res.status, res.text).toBe(200);
    return res.body as { entries: Entry[]; next_cursor: string | null };
  };
  const latest = async (action: string): Promise<Entry> =>
    (await audit('?limit=200')).entries.find((e) => e.action === action);

  beforeAll(async () => {
    // api.telegram.org resolves to loopback (nothing listens, nothing is sent: a channel's creation only resolves it).
    api = await start({
      env: { VIGIL_EGRESS_ALLOW: '127.0.0.0/8' },
      egress: providerEgress(new Map([['api.telegram.org', 9]])),
    });
    await enableToolsets(api, api.adminKey);
    await write('POST', '/v1/blueprints', { slug: 'web', name: 'Web service' });
    entityId = (await write('POST', '/v1/blueprints/web/entities', { slug: 'shop', name: 'Shop' })).id;
    keyId = (await write('GET', '/v1/me')).key.id;
    const listed = await write('GET', '/v1/auth/keys');
    const keys = (Array.isArray(listed) ? listed : listed.keys) as { id: string; prefix: string }[];
    keyPrefix = keys.find((k) => k.id === keyId)?.prefix ?? 'none';
    mcp = await connectSdkClient(api, api.adminKey);
  });

  afterAll(async () => {
    await mcp?.close();
    await api?.close();
  });

  it('records an API key write with the key, the route, the target and the fields set', async () => {
    const check = await write('POST', '/v1/checks', {
      entity_id: entityId,
      check_type: 'push',
      name: 'nightly',
    });
    const entry = await latest('check.create');
    expect(entry).toMatchObject({
      actor: { type: 'key', id: keyId },
      via: 'api',
      target: { type: 'check', id: check.id },
    });
    expect(entry.actor.label).toContain(keyPrefix);
    expect(entry.summary).toContain('check_type');
    expect(entry.summary).toContain('name: "nightly"');
    expect(entry.source_ip).toEqual(expect.any(String));
    expect(entry.id).toMatch(/^aud_[0-9A-Z]{26}$/);

    await write('PUT', `/v1/checks/${check.id}`, { interval_seconds: 120 });
    expect(await latest('check.update')).toMatchObject({
      target: { type: 'check', id: check.id },
      summary: 'fields: interval_seconds',
    });
    await write('DELETE', `/v1/checks/${check.id}`);
    expect(await latest('check.delete')).toMatchObject({ target: { type: 'check', id: check.id } });
  });

  it('records a console sign-in and a cookie-session write as the person, via the console; no password stored', async () => {
    const me = await write('GET', '/v1/me');
    const email: string = me.user.email;
    const set = await setPassword(api, api.adminKey, { password: GOOD_PASSWORD });
    expect(set.status, set.text).toBeLessThan(300);
    expect(await latest('password.change')).toMatchObject({
      actor: { type: 'key', id: keyId },
      target: { type: 'user', id: me.user.id },
      summary: 'fields: password',
    });
    const session = await signedIn(api, email);
    expect(await latest('session.create')).toMatchObject({
      actor: { type: 'user', id: me.user.id, label: email },
      target: { type: 'user', id: me.user.id },
      via: 'api',
    });
    const res = await withCookie(api, 'POST', '/v1/blueprints', session, {
      body: { slug: 'console-made', name: 'Console made' },
      csrf: await csrfOf(api, session),
    });
    expect(res.status, res.text).toBe(201);
    expect(await latest('blueprint.create')).toMatchObject({
      actor: { type: 'user', id: me.user.id, label: email },
      via: 'console',
      summary: 'fields: name, slug; name: "Console made"; slug: "console-made"',
    });
    const raw = JSON.stringify((await api.table.query({ pk: `AUDIT#${api.tenantId}`, limit: 1000 })).items);
    expect(raw).not.toContain(GOOD_PASSWORD);
    expect(raw).not.toContain(session);
  });

  it('says via cli when the request carries the CLI user agent', async () => {
    await write(
      'POST',
      '/v1/blueprints',
      { slug: 'db', name: 'Database' },
      { 'user-agent': 'vigil-cli/1.4.0' },
    );
    expect(await latest('blueprint.create')).toMatchObject({
      via: 'cli',
      target: { type: 'blueprint', id: expect.stringMatching(/^bp_/) },
      summary: 'fields: name, slug; name: "Database"; slug: "db"',
    });
  });

  it('never stores a secret a write sent: channel tokens and action headers', async () => {
    const channel = await write('POST', '/v1/notify/channels', {
      name: 'Ops chat',
      channel_type: 'telegram',
      config: { bot_token: TELEGRAM_TOKEN, chat_id: '-100200300' },
    });
    const action = await write('POST', '/v1/actions', {
      name: 'Deploy hook',
      url: 'https://api.telegram.org/hook',
      headers: { Authorization: ACTION_HEADER },
    });
    await write('PUT', `/v1/actions/${action.id}`, { headers: { Authorization: ACTION_HEADER } });
    expect(await latest('tenant_channel.create')).toMatchObject({
      target: { type: 'channel', id: channel.id },
      summary: 'fields: channel_type, config, name; name: "Ops chat"',
    });
    expect(await latest('action.update')).toMatchObject({ summary: 'fields: headers' });
    const raw = await api.table.query({ pk: `AUDIT#${api.tenantId}`, limit: 1000 });
    expect(raw.items.length).toBeGreaterThan(3);
    const stored = JSON.stringify(raw.items);
    for (const secret of [TELEGRAM_TOKEN, ACTION_HEADER, '-100200300', 'action-header-SECRET'])
      expect(stored).not.toContain(secret);
    expect(raw.items.every((item) => typeof item.ttl === 'number')).toBe(true);
  });

  it('records an MCP write tool as mcp.<tool> and not the MCP envelope nor read tools', async () => {
    const before = (await audit('?limit=200')).entries.length;
    const result = (await mcp.callTool({
      name: 'create_maintenance',
      arguments: {
        name: 'Shop upgrade',
        entity_ids: [entityId],
        starts_at: '2099-01-01T00:00:00.000Z',
        ends_at: '2099-01-01T01:00:00.000Z',
      },
    })) as CallToolResult;
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    await mcp.callTool({ name: 'get_status_summary', arguments: {} });
    const entries = (await audit('?limit=200')).entries;
    expect(entries.length).toBe(before + 1);
    expect(entries[0]).toMatchObject({
      actor: { type: 'key', id: keyId },
      via: 'mcp',
      action: 'mcp.create_maintenance',
      target: { type: 'maintenance_window', id: expect.stringMatching(/^mnt_/) },
      source_ip: expect.any(String),
      summary: 'arguments: ends_at, entity_ids, name, starts_at; name: "Shop upgrade"',
    });
    expect(
      entries.some((e: Entry) => e.action.startsWith('mcp.') && e.action !== 'mcp.create_maintenance'),
    ).toBe(false);
  });

  it('answers get_audit_log to admins and a tool error to others', async () => {
    const result = (await mcp.callTool({ name: 'get_audit_log', arguments: { limit: 2 } })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const data = result.structuredContent as { entries: Entry[]; next_cursor: string | null };
    expect(data.entries).toHaveLength(2);
    expect(data.next_cursor).toEqual(expect.any(String));
    const next = (await mcp.callTool({
      name: 'get_audit_log',
      arguments: { limit: 2, cursor: data.next_cursor },
    })) as CallToolResult;
    const page2 = (next.structuredContent as { entries: Entry[] }).entries;
    expect(page2.map((e) => e.id)).not.toContain(data.entries[0].id);

    const member = await memberKey();
    const client = await connectSdkClient(api, member);
    try {
      const refused = (await client.callTool({ name: 'get_audit_log', arguments: {} })) as CallToolResult;
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toContain('admins only');
    } finally {
      await client.close();
    }
  });

  it('records an operator command as the operator via cli', async () => {
    await api.operator(['tenant', 'limits', api.tenantId, '--email-daily-limit', '300']);
    expect(await latest('tenant.limits')).toMatchObject({
      actor: { type: 'operator', id: 'operator' },
      via: 'cli',
      target: { type: 'tenant', id: api.tenantId },
      summary: 'fields: email_daily_limit',
      source_ip: null,
    });
    await api.operator(['key', 'create', '--tenant', api.tenantId, '--name', 'rescue']);
    expect(await latest('api_key.create')).toMatchObject({ actor: { type: 'operator' }, via: 'cli' });
    const created = JSON.parse(
      await api.operator(['tenant', 'create', '--name', 'Operated', '--email', 'ops@example.com']),
    ) as { tenant_id: string; api_key: string };
    const theirs = await audit('', created.api_key);
    expect(theirs.entries).toMatchObject([
      {
        action: 'tenant.create',
        actor: { type: 'operator' },
        target: { type: 'tenant', id: created.tenant_id },
      },
    ]);
  });

  it("records an agent's first version and each change, not every heartbeat or lease", async () => {
    const location = await write('POST', '/v1/locations', { name: 'office', kind: 'agent' });
    const beat = async (version: string) => {
      const res = await api.request('POST', '/v1/agent/heartbeat', { key: location.key, body: { version } });
      expect(res.status, res.text).toBe(200);
    };
    const agentEntries = async () => (await audit(`?actor=${location.id}`)).entries;
    await beat('1.0.0');
    await beat('1.0.0');
    const lease = await api.request('POST', '/v1/agent/lease', {
      key: location.key,
      body: { max: 1, wait_seconds: 0 },
    });
    expect(lease.status, lease.text).toBe(200);
    expect(await agentEntries()).toMatchObject([
      {
        actor: { type: 'agent', id: location.id, label: 'office' },
        via: 'agent',
        action: 'location.agent_version',
        target: { type: 'location', id: location.id },
        summary: 'version: 1.0.0 (was none)',
      },
    ]);
    await beat('1.1.0');
    const entries = await agentEntries();
    expect(entries).toHaveLength(2);
    expect(entries[0].summary).toBe('version: 1.1.0 (was 1.0.0)');
  });

  it('filters by actor, target (type:id or id) and since, and pages with a sealed cursor', async () => {
    const names = ['one', 'two', 'three'];
    const ids: string[] = [];
    for (const name of names)
      ids.push((await write('POST', '/v1/checks', { entity_id: entityId, check_type: 'push', name })).id);
    const first = ids[0] ?? '';
    await write('PUT', `/v1/checks/${first}`, { interval_seconds: 300 });
    expect((await audit(`?target=${first}`)).entries.map((e: Entry) => e.action)).toEqual([
      'check.update',
      'check.create',
    ]);
    expect((await audit(`?target=check:${first}`)).entries).toHaveLength(2);
    expect((await audit(`?target=entity:${first}`)).entries).toHaveLength(0);
    expect((await audit(`?actor=${keyId}&target=${first}`)).entries).toHaveLength(2);
    expect((await audit('?actor=operator')).entries.every((e: Entry) => e.actor.type === 'operator')).toBe(
      true,
    );
    expect((await audit('?since=2099-01-01T00:00:00Z')).entries).toEqual([]);
    expect((await audit('?since=2000-01-01T00:00:00Z&limit=200')).entries.length).toBeGreaterThan(5);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { entries: Entry[]; next_cursor: string | null } = await audit(
        `?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(page.entries.length).toBeLessThanOrEqual(3);
      seen.push(...page.entries.map((e) => e.id));
      cursor = page.next_cursor;
    } while (cursor);
    const all = (await audit('?limit=200')).entries.map((e: Entry) => e.id);
    expect(seen).toEqual(all);
    expect([...all].sort().reverse()).toEqual(all);

    const page = await audit('?limit=1');
    const otherList = await api.request(
      'GET',
      `/v1/audit?limit=1&actor=operator&cursor=${page.next_cursor}`,
      {
        key: api.adminKey,
      },
    );
    expect(otherList.status).toBe(400);
    expect((await api.request('GET', '/v1/audit?limit=201', { key: api.adminKey })).status).toBe(400);
    expect((await api.request('GET', '/v1/audit?since=yesterday', { key: api.adminKey })).status).toBe(400);
  });

  it('is for admins: members get 403, a read-only admin key may read', async () => {
    const member = await memberKey();
    expect((await api.request('GET', '/v1/audit', { key: member })).status).toBe(403);
    const readOnly = await write('POST', '/v1/auth/keys', { label: 'auditor', is_read_only: true });
    expect((await api.request('GET', '/v1/audit', { key: readOnly.key })).status).toBe(200);
  });

  it("never shows another tenant's entries, nor opens its cursors", async () => {
    const other = await api.createTenant('Other audit tenant');
    const res = await api.request('POST', '/v1/blueprints', {
      key: other.key,
      body: { slug: 'theirs', name: 'Theirs' },
    });
    expect(res.status).toBe(201);
    const theirs = await audit('', other.key);
    expect(theirs.entries.map((e: Entry) => e.summary)).toEqual([expect.stringContaining('"theirs"')]);
    const ours = await audit('?limit=200');
    expect(ours.entries.length).toBeGreaterThan(5);
    expect(JSON.stringify(ours.entries)).not.toContain('"theirs"');
    const ourPage = await audit('?limit=1');
    const crossed = await api.request('GET', `/v1/audit?limit=1&cursor=${ourPage.next_cursor}`, {
      key: other.key,
    });
    expect(crossed.status).toBe(400);
  });

  it('answers a write whose audit entry cannot be stored as if nothing failed, and logs it', async () => {
    const transact = api.table.transact.bind(api.table);
    api.table.transact = async (ops, ...rest) => {
      if (JSON.stringify(ops).includes('"audit_entry"')) throw new Error('audit store unavailable');
      return transact(ops, ...rest);
    };
    try {
      const res = await api.request('POST', '/v1/blueprints', {
        key: api.adminKey,
        body: { slug: 'unaudited', name: 'Unaudited' },
      });
      expect(res.status, res.text).toBe(201);
    } finally {
      api.table.transact = transact;
    }
    expect((await api.request('GET', '/v1/blueprints/unaudited', { key: api.adminKey })).status).toBe(200);
    expect(JSON.stringify((await audit('?limit=200')).entries)).not.toContain('"unaudited"');
    expect(api.logs.some((line) => line.includes('audit entry not written'))).toBe(true);
  });

  /** A member's key: an invitation accepted. */
  async function memberKey(): Promise<string> {
    const invitation = await write('POST', '/v1/settings/users/invite', {
      email: `member-${Math.random().toString(36).slice(2)}@example.com`,
      role: 'member',
    });
    const accepted = await api.request('POST', '/v1/settings/users/accept', {
      body: { token: invitation.token, name: 'Member' },
    });
    expect(accepted.status, accepted.text).toBe(201);
    return accepted.body.key as string;
  }
});
