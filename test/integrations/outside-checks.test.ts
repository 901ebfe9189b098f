import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, adminCall, bothRuntimes } from '../support/api-harness.ts';
import { pagerDutyEnqueue } from '../support/pagerduty-enqueue.ts';

/**
 * Outside alerts through the app in both runtimes (issue 77 points 1–3): an integration made over
 * the API, Alertmanager's webhook posted to its ingest URL, and the alert landing on the entity its
 * rule names as one `outside` check, whose state is the worst open alert's — so the entity, its
 * transitions and its incident move as for a probed check. The check is the integration's: the API
 * refuses to create, edit, probe, push to or delete one, and it goes with its integration.
 */

// biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected freely
type Json = any;

const alert = (fingerprint: string, status: 'firing' | 'resolved', severity: string, summary: string) => ({
  status,
  fingerprint,
  labels: { alertname: 'OrdersDbDown', service: 'orders-db', severity },
  annotations: { summary },
  startsAt: '2026-11-29T00:00:00Z',
  endsAt: status === 'resolved' ? '2026-11-29T00:05:00Z' : '0001-01-01T00:00:00Z',
  generatorURL: 'http://prometheus.internal/graph?g0.expr=up',
});

const webhook = (alerts: ReturnType<typeof alert>[]) => ({
  version: '4',
  groupKey: '{}:{alertname="OrdersDbDown"}',
  status: alerts.some((a) => a.status === 'firing') ? 'firing' : 'resolved',
  receiver: 'vigil',
  groupLabels: {},
  commonLabels: {},
  commonAnnotations: {},
  externalURL: 'http://alertmanager.internal',
  alerts,
});

describe.each(bothRuntimes)('outside checks ($runtime)', ({ start }) => {
  let api: ApiHarness;
  let entityId: string;
  let integration: Json;
  let token: string;

  const call = (method: string, path: string, body?: unknown) => adminCall(api, method, path, body);
  const ingest = async (alerts: ReturnType<typeof alert>[]) => {
    const res = await api.request('POST', `/in/${token}`, { body: webhook(alerts) });
    expect(res.status, res.text).toBe(202);
    await api.drainChanges();
    return res.body;
  };
  const outsideChecks = async (): Promise<Json[]> =>
    (await call('GET', `/v1/checks?entity_id=${entityId}`)).filter((c: Json) => c.check_type === 'outside');
  const entityState = async () => (await call('GET', '/v1/blueprints/service/entities/orders-db')).state;

  beforeAll(async () => {
    api = await start();
    await call('POST', '/v1/blueprints', { slug: 'service', name: 'Service', fields: [] });
    entityId = (
      await call('POST', '/v1/blueprints/service/entities', {
        slug: 'orders-db',
        name: 'Orders DB',
        fields: {},
      })
    ).id;
    integration = await call('POST', '/v1/integrations', {
      name: 'Prometheus',
      kind: 'alertmanager',
      entity_rules: [{ match: { service: '/.+/' }, entity: 'service/{{labels.service}}' }],
    });
    token = integration.token;
  });
  afterAll(async () => {
    await api?.close();
  });

  it('makes one outside check on the named entity at the first alert, down while a critical alert is open', async () => {
    expect(integration.ingest_url).toContain(`/in/${token}`);
    expect(await outsideChecks()).toEqual([]);
    const answer = await ingest([alert('fp1', 'firing', 'critical', 'orders-db is down')]);
    expect(answer).toMatchObject({ accepted: 1 });
    const [check] = await outsideChecks();
    expect(check).toMatchObject({
      check_type: 'outside',
      name: 'Prometheus',
      execution_mode: 'push',
      state: 'down',
      next_run_at: null,
      config: { integration_id: integration.id },
    });
    expect(await entityState()).toBe('down');
    const results = await call('GET', `/v1/checks/${check.id}/results`);
    expect(results.results[0]).toMatchObject({ success: false, error_message: 'orders-db is down' });
    // The result names the alert and links back to its sender, as messages and the console show it.
    const [stored] = (await call('GET', `/v1/outside-alerts?entity_id=${entityId}`)).alerts;
    expect(results.results[0].details).toEqual({
      outside_alert: {
        alert_id: stored.id,
        dedup_key: 'fp1',
        links: [{ href: 'http://prometheus.internal/graph?g0.expr=up', text: 'Source' }],
      },
    });
    // A retrigger counts on the alert and makes no second check.
    await ingest([alert('fp1', 'firing', 'critical', 'orders-db is down')]);
    expect(await outsideChecks()).toHaveLength(1);
  });

  it('is degraded while only a warning is open, and up once every alert is resolved', async () => {
    await ingest([
      alert('fp1', 'resolved', 'critical', 'orders-db is down'),
      alert('fp2', 'firing', 'warning', 'orders-db is slow'),
    ]);
    expect((await outsideChecks())[0]).toMatchObject({ state: 'degraded' });
    expect(await entityState()).toBe('degraded');
    // An info alert moves no state.
    await ingest([
      alert('fp2', 'resolved', 'warning', 'orders-db is slow'),
      alert('fp3', 'firing', 'info', 'fyi'),
    ]);
    expect((await outsideChecks())[0]).toMatchObject({ state: 'up' });
    expect(await entityState()).toBe('up');
    const alerts = await call('GET', `/v1/outside-alerts?entity_id=${entityId}&status=open`);
    expect(alerts.alerts.map((a: Json) => a.dedup_key)).toEqual(['fp3']);
  });

  it('refuses every API write of an outside check: create, edit, run, push, delete', async () => {
    const [check] = await outsideChecks();
    const key = { key: api.adminKey };
    const create = await api.request('POST', '/v1/checks', {
      ...key,
      body: { entity_id: entityId, check_type: 'outside', config: { integration_id: integration.id } },
    });
    expect(create.status).toBe(400);
    expect(create.text).toContain('Choose one of');
    expect(create.text).not.toContain('outside');
    for (const [method, path, body] of [
      ['PUT', `/v1/checks/${check.id}`, { enabled: false }],
      ['DELETE', `/v1/checks/${check.id}`, undefined],
      ['POST', `/v1/checks/${check.id}/run`, undefined],
      ['POST', `/v1/checks/${check.id}/results`, { success: false, latency_ms: 1 }],
    ] as const) {
      const res = await api.request(method, path, { ...key, ...(body ? { body } : {}) });
      expect(res.status, `${method} ${path}: ${res.text}`).toBe(409);
      expect(res.body.error).toMatch(/outside check|integration/);
    }
    expect(await outsideChecks()).toHaveLength(1);
  });

  it('acknowledges the open incident when a PagerDuty sender acknowledges, and records a Vigil acknowledgement on the alerts', async () => {
    await call('POST', '/v1/blueprints/service/entities', { slug: 'payments', name: 'Payments', fields: {} });
    const pd = await call('POST', '/v1/integrations', {
      name: 'Datadog',
      kind: 'pagerduty',
      entity_rules: [{ match: { service: 'payments' }, entity: 'service/payments' }],
    });
    const enqueue = pagerDutyEnqueue(api, pd.routing_key, 'payments');
    const incidentOf = async () => {
      const entity = await call('GET', '/v1/blueprints/service/entities/payments');
      return (await call('GET', `/v1/incidents?entity_id=${entity.id}`)).incidents[0];
    };
    await enqueue('trigger', 'pay-1');
    expect(await incidentOf()).toMatchObject({ state: 'open', acknowledged_by: null });
    await enqueue('acknowledge', 'pay-1');
    expect(await incidentOf()).toMatchObject({ state: 'acknowledged', acknowledged_by: pd.id });

    // The other way: an acknowledgement in Vigil is recorded on the entity's triggered alerts.
    await enqueue('resolve', 'pay-1');
    await enqueue('trigger', 'pay-2');
    const open = await incidentOf();
    expect(open).toMatchObject({ state: 'open' });
    await call('POST', `/v1/incidents/${open.id}/acknowledge`);
    const alerts = await call('GET', `/v1/outside-alerts?entity_id=${open.entity_id}&status=open`);
    expect(alerts.alerts.map((a: Json) => [a.dedup_key, a.status])).toEqual([['pay-2', 'acknowledged']]);
  });

  it('leaves integrations’ own blueprint, entities and outside checks out of configuration as code, so a pruning apply keeps them', async () => {
    const exported = await api.request('GET', '/v1/config/export', {
      key: api.adminKey,
      headers: { accept: 'application/json' },
    });
    expect(exported.status, exported.text).toBe(200);
    const doc = exported.body;
    expect(doc.blueprints.map((b: Json) => b.slug)).toEqual(['service']);
    expect((doc.entities as Json[]).every((e) => e.blueprint === 'service')).toBe(true);
    expect(((doc.checks ?? []) as Json[]).some((c) => c.check_type === 'outside')).toBe(false);
    const applied = await api.request('POST', '/v1/config/apply?prune=true', {
      key: api.adminKey,
      body: doc,
    });
    expect(applied.status, applied.text).toBe(200);
    expect(await outsideChecks()).toHaveLength(1);
    const own = await api.request('GET', `/v1/integrations/${integration.id}`, { key: api.adminKey });
    const ownEntity = await api.request('GET', '/v1/entities?blueprint_slug=integration', {
      key: api.adminKey,
    });
    expect(ownEntity.body.entities.map((e: Json) => e.id)).toContain(own.body.entity_id);
  });

  it('is deleted with its integration, and the entity no longer counts it', async () => {
    const other = await api.createTenant('Other');
    const foreign = await api.request('DELETE', `/v1/integrations/${integration.id}`, { key: other.key });
    expect(foreign.status).toBe(404);
    await call('DELETE', `/v1/integrations/${integration.id}`);
    expect(await outsideChecks()).toEqual([]);
    const gone = await api.request('POST', `/in/${token}`, {
      body: webhook([alert('fp4', 'firing', 'critical', 'again')]),
    });
    expect(gone.status).toBe(404);
  });
});
