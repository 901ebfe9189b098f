import { beforeEach, describe, expect, it } from 'vitest';
import { integrationsRig } from './support/integrations-rig.ts';

/**
 * The integrations feature through the router, over SQLite (lib/integrations/compose.ts): admins
 * make integrations and see each token once; read-only keys and other tenants cannot reach them;
 * a sender's request is answered after its alerts are stored, by the path's token, a Bearer
 * header or PagerDuty's routing key; a wrong token is a 404 counted per address, a disabled
 * integration 410, an oversized body 413; a rotated token stops at once.
 */

const firing = (fingerprint: string, service = 'orders-db') => ({
  version: '4',
  status: 'firing',
  alerts: [
    {
      status: 'firing',
      fingerprint,
      labels: { alertname: 'Down', service },
      annotations: { summary: `${fingerprint} down` },
    },
  ],
});
const rules = [{ match: {}, entity: 'service/{{labels.service}}' }];

describe('integrations through the router', () => {
  let h: Awaited<ReturnType<typeof integrationsRig>>;
  beforeEach(async () => {
    h = await integrationsRig();
  });

  it('shows the token once, to an admin; never to a read, a read-only key or another tenant', async () => {
    const made = await h.call('POST', '/v1/integrations', {
      key: 'admin-a',
      body: { name: 'Prom', kind: 'alertmanager', entity_rules: rules },
    });
    expect(made.status).toBe(201);
    expect(made.body.token).toMatch(/^[0-9A-Za-z]{32}$/);
    expect(made.body.ingest_url).toBe(`http://localhost/in/${made.body.token}`);
    expect(h.ownEntities.size).toBe(1);
    const read = await h.call('GET', `/v1/integrations/${made.body.id}`, { key: 'reader-a' });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      id: made.body.id,
      ingest_url: null,
      token_prefix: made.body.token.slice(0, 6),
    });
    expect(JSON.stringify(read.body)).not.toContain(made.body.token);
    expect((await h.call('GET', '/v1/integrations', { key: 'reader-a' })).body.integrations).toHaveLength(1);
    expect(
      (await h.call('POST', '/v1/integrations', { key: 'reader-a', body: { name: 'x', kind: 'grafana' } }))
        .status,
    ).toBe(403);
    expect((await h.call('GET', `/v1/integrations/${made.body.id}`, { key: 'admin-b' })).status).toBe(404);
    expect((await h.call('DELETE', `/v1/integrations/${made.body.id}`, { key: 'admin-b' })).status).toBe(404);
  });

  it('takes a sender’s request by the path token or a Bearer header, and lists what it stored', async () => {
    const { body: made } = await h.call('POST', '/v1/integrations', {
      key: 'admin-a',
      body: { name: 'Prom', kind: 'alertmanager', entity_rules: rules },
    });
    const byPath = await h.call('POST', `/in/${made.token}`, { body: firing('a') });
    expect(byPath).toMatchObject({
      status: 202,
      body: { accepted: 1, deduplicated: 0, unmatched: 0, ignored: 0 },
    });
    expect((await h.call('POST', '/in', { key: made.token, body: firing('a') })).body).toMatchObject({
      deduplicated: 1,
    });
    expect((await h.call('POST', `/in/${made.token}`, { body: firing('b', 'billing') })).body).toMatchObject({
      unmatched: 1,
    });
    const open = await h.call('GET', '/v1/outside-alerts?status=open', { key: 'reader-a' });
    expect(
      open.body.alerts.map((a: { dedup_key: string; entity_id: string }) => [a.dedup_key, a.entity_id]),
    ).toEqual([
      ['b', made.entity_id],
      ['a', 'ent_orders'],
    ]);
    expect(
      (await h.call('GET', '/v1/outside-alerts?entity_id=ent_orders', { key: 'reader-a' })).body.alerts,
    ).toHaveLength(1);
    expect((await h.call('GET', '/v1/outside-alerts', { key: 'admin-b' })).body.alerts).toEqual([]);
  });

  it('refuses a wrong token (404, counted per address), a bad body (400, nothing stored), a disabled integration (410), 512 KB (413)', async () => {
    const { body: made } = await h.call('POST', '/v1/integrations', {
      key: 'admin-a',
      body: { name: 'Prom', kind: 'alertmanager' },
    });
    const wrong: number[] = [];
    for (let i = 0; i < 6; i++)
      wrong.push(
        (await h.call('POST', '/in/nope-not-a-token', { body: firing('a'), ip: '198.51.100.7' })).status,
      );
    expect(wrong).toEqual([404, 404, 404, 404, 404, 429]);
    expect(
      (await h.call('POST', `/in/${made.token}`, { body: firing('a'), ip: '198.51.100.8' })).status,
    ).toBe(202);
    const bad = await h.call('POST', `/in/${made.token}`, { body: { alerts: [{ status: 'burning' }] } });
    expect(bad).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
    expect((await h.call('POST', `/in/${made.token}`, { raw: Buffer.from('{not json') })).status).toBe(400);
    expect(
      (await h.call('POST', `/in/${made.token}`, { raw: Buffer.alloc(512 * 1024 + 1, 32) })).status,
    ).toBe(413);
    await h.call('PUT', `/v1/integrations/${made.id}`, {
      key: 'admin-a',
      body: { name: 'Prom', kind: 'alertmanager', enabled: false },
    });
    expect(await h.call('POST', `/in/${made.token}`, { body: firing('c') })).toMatchObject({
      status: 410,
      body: { code: 'INTEGRATION_DISABLED' },
    });
    expect((await h.call('GET', '/v1/outside-alerts', { key: 'admin-a' })).body.alerts).toHaveLength(1);
  });

  it('answers PagerDuty’s Events API v2 by routing key, and a rotated token stops at once', async () => {
    const { body: made } = await h.call('POST', '/v1/integrations', {
      key: 'admin-a',
      body: { name: 'PD', kind: 'pagerduty' },
    });
    expect(made).toMatchObject({ ingest_url: 'http://localhost/v2/enqueue', routing_key: made.token });
    const event = (routing_key: string) => ({
      routing_key,
      event_action: 'trigger',
      dedup_key: 'orders-5xx',
      payload: { summary: 'Orders 5xx', source: 'orders-api', severity: 'error' },
    });
    expect(await h.call('POST', '/v2/enqueue', { body: event(made.token) })).toMatchObject({
      status: 202,
      body: { status: 'success', message: 'Event processed', dedup_key: 'orders-5xx' },
    });
    const rotated = await h.call('POST', `/v1/integrations/${made.id}/token`, { key: 'admin-a' });
    expect(rotated.body.routing_key).not.toBe(made.token);
    expect((await h.call('POST', '/v2/enqueue', { body: event(made.token) })).status).toBe(404);
    expect((await h.call('POST', '/v2/enqueue', { body: event(rotated.body.routing_key) })).status).toBe(202);
    expect((await h.call('GET', '/v1/outside-alerts', { key: 'admin-a' })).body.alerts).toHaveLength(1);
    expect((await h.call('DELETE', `/v1/integrations/${made.id}`, { key: 'admin-a' })).status).toBe(204);
    expect(h.ownEntities.size).toBe(0);
    // Its alerts went with it.
    expect((await h.call('GET', '/v1/outside-alerts', { key: 'admin-a' })).body.alerts).toEqual([]);
    expect((await h.call('DELETE', `/v1/integrations/${made.id}`, { key: 'admin-a' })).status).toBe(404);
    expect((await h.call('POST', '/v2/enqueue', { body: event(rotated.body.routing_key) })).status).toBe(404);
  });

  it('logs the last 50 requests with what each became, a routing key masked', async () => {
    const { body: made } = await h.call('POST', '/v1/integrations', {
      key: 'admin-a',
      body: { name: 'Prom', kind: 'alertmanager', entity_rules: rules },
    });
    await h.call('POST', `/in/${made.token}`, { body: firing('a') });
    await h.call('POST', `/in/${made.token}`, { body: firing('a') });
    await h.call('POST', `/in/${made.token}`, { body: firing('b', 'billing') });
    await h.call('POST', `/in/${made.token}`, { body: { alerts: [{ status: 'burning' }] } });
    const log = await h.call('GET', `/v1/integrations/${made.id}/payloads`, { key: 'reader-a' });
    expect(log.body.payloads.map((p: { outcome: string; detail: string }) => [p.outcome, p.detail])).toEqual([
      ['refused', expect.stringMatching(/^400: invalid body: alerts\.0\.status/)],
      ['unmatched', '1 accepted, 0 deduplicated, 1 unmatched, 0 ignored (b: no entity service/billing)'],
      ['deduplicated', '0 accepted, 1 deduplicated, 0 unmatched, 0 ignored'],
      ['accepted', '1 accepted, 0 deduplicated, 0 unmatched, 0 ignored'],
    ]);
    expect(log.body.payloads[3].excerpt).toBe(JSON.stringify(firing('a')));
    for (let i = 0; i < 52; i++) await h.call('POST', `/in/${made.token}`, { body: firing(`x${i}`) });
    const full = await h.call('GET', `/v1/integrations/${made.id}/payloads`, { key: 'reader-a' });
    expect(full.body.payloads).toHaveLength(50);
    expect(full.body.payloads[0].excerpt).toContain('x51');
    expect((await h.call('GET', `/v1/integrations/${made.id}/payloads`, { key: 'admin-b' })).status).toBe(
      404,
    );

    const { body: pd } = await h.call('POST', '/v1/integrations', {
      key: 'admin-a',
      body: { name: 'PD', kind: 'pagerduty' },
    });
    await h.call('POST', '/v2/enqueue', {
      body: { routing_key: pd.token, event_action: 'resolve', dedup_key: 'nothing-open' },
    });
    const [line] = (await h.call('GET', `/v1/integrations/${pd.id}/payloads`, { key: 'admin-a' })).body
      .payloads;
    expect(line).toMatchObject({ outcome: 'ignored' });
    expect(line.excerpt).toContain('"routing_key":"********"');
    expect(line.excerpt).not.toContain(pd.token);
  });
});
