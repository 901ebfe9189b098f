import { describe, expect, it } from 'vitest';
import { newCheck, newEntity, quietTcpCheck } from '../checks/check-fixtures.ts';
import { runtimes } from '../support/api-harness.ts';
import { useNotifyApi } from './support/notify-api.ts';

/** One valid body per channel type, all on loopback (allowed by VIGIL_EGRESS_ALLOW in these tests). */
const BODIES = {
  slack: { channel_type: 'slack', config: { url: 'https://127.0.0.1:9/slack/T0/B0/XXXX' } },
  discord: { channel_type: 'discord', config: { url: 'https://127.0.0.1:9/api/webhooks/1/abc' } },
  webhook: { channel_type: 'webhook', config: { url: 'https://127.0.0.1:9/hook', secret: 'whsec-123' } },
  nats: { channel_type: 'nats', config: { subject: 'vigil.alerts.prod' } },
  ntfy: { channel_type: 'ntfy', config: { url: 'https://127.0.0.1:9/my-topic', token: 'tk_abcdef' } },
} as const;

describe.each(runtimes)('notification channels API ($runtime runtime)', ({ start }) => {
  const t = useNotifyApi(start);
  const { call } = t;
  const addChannel = (checkId: string, body: unknown, key = t.api.adminKey) =>
    call('POST', `/v1/checks/${checkId}/policy/channels`, body, key);

  it('creates a channel of each type with 201, secrets and tokens write-only', async () => {
    const checkId = await t.quietCheck();
    const made: Record<string, { id: string; config: Record<string, string> }> = {};
    for (const [type, body] of Object.entries(BODIES)) {
      const res = await addChannel(checkId, body);
      expect(res.status, res.text).toBe(201);
      expect(Object.keys(res.body).sort()).toEqual([
        'channel_type',
        'check_id',
        'config',
        'created_at',
        'id',
        'warnings',
      ]);
      expect(res.body).toMatchObject({ channel_type: type, check_id: checkId, warnings: [] });
      expect(res.body.id).toMatch(/^chn_[0-9A-Z]{26}$/);
      made[type] = res.body;
    }
    expect(made.slack?.config).toEqual(BODIES.slack.config);
    expect(made.webhook?.config).toEqual({ url: BODIES.webhook.config.url, secret: '********' });
    expect(made.ntfy?.config).toEqual({ url: BODIES.ntfy.config.url, token: '********' });
    expect(made.nats?.config).toEqual({
      subject: 'vigil.alerts.prod',
      published_subject: `vigil.${t.api.tenantId}.vigil.alerts.prod`,
    });
    const stored = await t.api.app.channels.get(checkId, made.webhook?.id ?? '');
    expect(stored?.config).toEqual(BODIES.webhook.config);
  });

  it('redacts every URL for a read-only key and still shows the nats subject and email recipients', async () => {
    const checkId = await t.quietCheck();
    for (const body of Object.values(BODIES)) expect((await addChannel(checkId, body)).status).toBe(201);
    // Recipients are who gets paged, not a credential (docs/notifications.md "Email set-up").
    const email = { channel_type: 'email', config: { to: ['ops@example.com'] } };
    expect((await addChannel(checkId, email)).status).toBe(201);
    const res = await call('GET', `/v1/checks/${checkId}/policy`, undefined, t.viewer);
    const configs = Object.fromEntries(
      res.body.channels.map((c: { channel_type: string; config: unknown }) => [c.channel_type, c.config]),
    );
    expect(configs).toEqual({
      slack: { url: '********' },
      discord: { url: '********' },
      webhook: { url: '********', secret: '********' },
      nats: { subject: 'vigil.alerts.prod', published_subject: `vigil.${t.api.tenantId}.vigil.alerts.prod` },
      ntfy: { url: '********', token: '********' },
      email: { to: ['ops@example.com'] },
    });
    const listed = await call('GET', '/v1/notify/channels?limit=200', undefined, t.viewer);
    expect(listed.status).toBe(200);
    // Channel URLs (https://127.0.0.1:9/…) are redacted; a check's name ("TCP 127.0.0.1:9", as
    // GET /v1/checks shows read-only keys) may name the same address.
    for (const secret of ['whsec-123', 'tk_abcdef', 'https://127.0.0.1:9'])
      expect(listed.text).not.toContain(secret);
  });

  it.each([
    [{ channel_type: 'carrier-pigeon', config: { url: 'https://127.0.0.1/x' } }, 'channel_type'],
    [{ channel_type: 'webhook', config: { url: 'ftp://127.0.0.1/x' } }, 'config.url'],
    [{ channel_type: 'slack', config: {} }, 'config.url'],
    [{ channel_type: 'nats', config: { subject: 'alerts.*' } }, 'config.subject'],
    [{ channel_type: 'nats', config: { subject: 'alerts.>' } }, 'config.subject'],
    [{ channel_type: 'nats', config: { subject: '>' } }, 'config.subject'],
    [{ channel_type: 'webhook', config: { url: 'https://127.0.0.1/x', extra: 1 } }, 'config'],
  ])('refuses the channel %j with 400', async (body, field) => {
    const checkId = await t.quietCheck();
    const res = await addChannel(checkId, body);
    expect(res.status, res.text).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.details.map((d: { path: string }) => d.path).join(' ')).toContain(field);
    expect(await t.api.app.channels.listForCheck(checkId)).toEqual([]);
  });

  it('refuses a URL whose address is private and not allow-listed (the SSRF guard at create)', async () => {
    const checkId = await t.quietCheck();
    for (const url of ['https://10.1.2.3/hook', 'https://169.254.169.254/latest', 'https://[::1]/x']) {
      const res = await addChannel(checkId, { channel_type: 'webhook', config: { url } });
      expect(res.status, `${url} ${res.text}`).toBe(400);
      expect(res.body.details[0].path).toBe('config.url');
    }
  });

  it('holds a check to 10 channels with 403 LIMIT_EXCEEDED, even under concurrent creates', async () => {
    const checkId = await t.quietCheck();
    const results = await Promise.all(Array.from({ length: 14 }, () => addChannel(checkId, BODIES.nats)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(10);
    for (const res of results.filter((r) => r.status !== 201)) {
      expect(res.status, res.text).toBe(403);
      expect(res.body.code).toBe('LIMIT_EXCEEDED');
    }
    expect(await t.api.app.channels.listForCheck(checkId)).toHaveLength(10);
    const first = results.find((r) => r.status === 201)?.body.id;
    expect((await call('DELETE', `/v1/checks/${checkId}/policy/channels/${first}`)).status).toBe(204);
    expect((await addChannel(checkId, BODIES.nats)).status).toBe(201);
  });

  it('removes a channel with 204, then answers 404 for it', async () => {
    const checkId = await t.quietCheck();
    const channel = (await addChannel(checkId, BODIES.slack)).body;
    const path = `/v1/checks/${checkId}/policy/channels/${channel.id}`;
    const removed = await call('DELETE', path);
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');
    expect((await call('GET', `/v1/checks/${checkId}/policy`)).body.channels).toEqual([]);
    const again = await call('DELETE', path);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ error: 'channel not found', code: 'NOT_FOUND' });
    expect((await call('DELETE', `/v1/checks/${checkId}/policy/channels/chn_bad`)).body.error).toBe(
      'channel not found',
    );
  });

  it('answers 404 when the channel belongs to another check', async () => {
    const a = await t.quietCheck();
    const b = await t.quietCheck();
    const channel = (await addChannel(a, BODIES.nats)).body;
    expect((await call('DELETE', `/v1/checks/${b}/policy/channels/${channel.id}`)).status).toBe(404);
    expect(await t.api.app.channels.listForCheck(a)).toHaveLength(1);
  });

  it('answers 403 READ_ONLY to a read-only key adding or removing channels', async () => {
    const checkId = await t.quietCheck();
    const channel = (await addChannel(checkId, BODIES.nats)).body;
    for (const res of [
      await addChannel(checkId, BODIES.nats, t.viewer),
      await call('DELETE', `/v1/checks/${checkId}/policy/channels/${channel.id}`, undefined, t.viewer),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('READ_ONLY');
    }
    expect(await t.api.app.channels.listForCheck(checkId)).toHaveLength(1);
  });

  it('hides channels from another tenant: 404 on its check, absent from its list', async () => {
    const checkId = await t.quietCheck();
    const channel = (await addChannel(checkId, BODIES.webhook)).body;
    const other = await t.api.createTenant('ChannelsOther');
    expect((await addChannel(checkId, BODIES.nats, other.key)).status).toBe(404);
    const del = await call(
      'DELETE',
      `/v1/checks/${checkId}/policy/channels/${channel.id}`,
      undefined,
      other.key,
    );
    expect(del.status).toBe(404);
    const list = await call('GET', '/v1/notify/channels', undefined, other.key);
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ channels: [], next_cursor: null });
    expect(await t.api.app.channels.listForCheck(checkId)).toHaveLength(1);
  });

  it('lists the tenant’s channels across checks, newest first, in sealed pages', async () => {
    const tenant = await t.api.createTenant('ChannelsPaging');
    const entity = await newEntity(t.api, { key: tenant.key });
    const checks = [
      await newCheck(t.api, quietTcpCheck(entity), tenant.key),
      await newCheck(t.api, quietTcpCheck(entity), tenant.key),
    ];
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const res = await addChannel(checks[i % 2] ?? '', BODIES.nats, tenant.key);
      ids.push(res.body.id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const page = await call('GET', `/v1/notify/channels?limit=2${query}`, undefined, tenant.key);
      expect(page.status, page.text).toBe(200);
      expect(page.body.channels.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.channels.map((c: { id: string }) => c.id));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
    const bad = await call('GET', '/v1/notify/channels?cursor=abc', undefined, tenant.key);
    expect(bad.status).toBe(400);
    expect((await call('GET', '/v1/notify/channels?limit=201', undefined, tenant.key)).status).toBe(400);
  });
});
