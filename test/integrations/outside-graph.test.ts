import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flowHarnessPerTest } from '../notify/support/flow-harness.ts';
import { alertmanagerWebhook } from '../support/alertmanager-webhook.ts';
import { type ApiHarness, adminCall, bothRuntimes } from '../support/api-harness.ts';
import { pagerDutyEnqueue } from '../support/pagerduty-enqueue.ts';
import { pushCheckFixtures } from '../support/push-fixtures.ts';

/**
 * Outside and inside in one graph (issue 77 point 4): Alertmanager says Orders DB is down, then
 * Vigil's own check fails on Shop API, which depends on it. Shop API's alert is held by the
 * upstream rule as for a probed root cause; Orders DB's alert and its incident carry the outside
 * alert's summary as the reason; the resolve brings Orders DB back up and Shop API's alert is
 * judged again. The local runtime's real flow on fake time. Then the incidents of the same graph in
 * both runtimes: one incident per root cause, whether the signal came from a probe or Prometheus,
 * and acknowledged either way across it (a sender's acknowledge of an affected entity's alert, a
 * Vigil acknowledgement of the root's incident on the affected entity's alerts).
 */

const h = flowHarnessPerTest();

/** Prometheus's graph of the rule: the alert's link back to its source. */
const GRAPH = 'http://prometheus.internal:9090/graph?g0.expr=pg_up%3D%3D0';

/** Alertmanager's webhook of the one alert on orders-db. */
const webhook = (status: 'firing' | 'resolved', severity: string, summary: string) =>
  alertmanagerWebhook([
    {
      fingerprint: 'orders-db-primary',
      alertname: 'PostgresDown',
      status,
      service: 'orders-db',
      severity,
      summary,
      generatorURL: GRAPH,
    },
  ]);

describe('outside alerts in the dependency graph', () => {
  it('holds a dependent’s alert while an outside alert holds its upstream down, naming the outside alert as the reason', async () => {
    const db = await h.entityWithCheck('Orders DB');
    const shop = await h.entityWithCheck('Shop API');
    await h.dependsOn(shop.entityId, db.entityId);
    const integration = await h.call(
      'POST',
      '/v1/integrations',
      {
        name: 'Prometheus',
        kind: 'alertmanager',
        entity_rules: [{ match: { service: 'orders-db' }, entity: 'svc/e1' }],
      },
      201,
    );
    const ingest = async (body: unknown) => {
      await h.call('POST', `/in/${integration.token}`, body, 202);
      await h.settle();
    };
    for (const e of [db, shop]) await h.result(e.checkId, true);

    // An info alert makes the outside check (up: info moves no state); it gets a channel like any check.
    await ingest(webhook('firing', 'info', 'replica lag 2 s'));
    const checks = await h.call('GET', `/v1/checks?entity_id=${db.entityId}`, undefined, 200);
    const outside = checks.find((c: { check_type: string }) => c.check_type === 'outside');
    expect(outside).toMatchObject({ state: 'up', name: 'Prometheus' });
    for (const checkId of [outside.id, shop.checkId]) {
      await h.channel(checkId);
      await h.policy(checkId, { cooldown_seconds: 0 });
    }

    await ingest(webhook('firing', 'critical', 'orders-db primary is down'));
    await h.result(shop.checkId, false);
    const told = () =>
      h.sent.map((s) => `${s.alert.kind}:${s.alert.event.entity_name}:${s.alert.event.to_state}`);
    expect(told()).toEqual(['alert:Orders DB:down']);
    expect(h.sent[0]?.alert).toMatchObject({
      reason: 'orders-db primary is down',
      checkLabel: 'outside alerts',
      sourceLinks: [{ href: GRAPH, text: 'Source' }],
    });
    const shopLogs = (await h.logs(shop.checkId)).map((l) => `${l.kind}:${l.status}:${l.reason}`);
    expect(shopLogs[0]).toBe('alert:skipped:upstream Orders DB is down');

    // The root cause's incident, opened by the outside alert, its transition's reason the summary
    // (Shop API joins it as an affected entity: one incident per root cause).
    const incidents = await h.call(
      'GET',
      `/v1/incidents?state=open&entity_id=${db.entityId}`,
      undefined,
      200,
    );
    expect(incidents.incidents).toHaveLength(1);
    const detail = await h.call('GET', `/v1/incidents/${incidents.incidents[0].id}`, undefined, 200);
    expect(detail.timeline[0]).toMatchObject({ type: 'transition', check_id: outside.id, to_state: 'down' });

    // Resolved in Alertmanager: Orders DB is up again, and Shop API, still failing, is told now.
    await ingest(webhook('resolved', 'critical', 'orders-db primary is down'));
    expect(told()).toContain('alert:Orders DB:up');
    expect(told()).toContain('alert:Shop API:down');
  });
});

// biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected freely
type Json = any;

describe.each(bothRuntimes)(
  'one incident per root cause across outside and inside signals ($runtime)',
  ({ start }) => {
    let api: ApiHarness;
    const call = (method: string, path: string, body?: unknown) => adminCall(api, method, path, body);
    const fx = pushCheckFixtures(
      (method, path, body) => call(method, path, body),
      () => api.drainChanges(),
    );
    beforeAll(async () => {
      api = await start();
    });
    afterAll(async () => {
      await api?.close();
    });
    const unresolved = async (entityId: string): Promise<Json[]> =>
      (await call('GET', `/v1/incidents?entity_id=${entityId}`)).incidents.filter(
        (i: Json) => i.state !== 'resolved',
      );

    it('Shop API failing while Alertmanager holds Orders DB down joins Orders DB’s incident, and opens its own once Orders DB is resolved', async () => {
      const db = await fx.entityWithCheck('Orders DB');
      const shop = await fx.entityWithCheck('Shop API');
      await call('POST', '/v1/relations', {
        from_entity_id: shop.entityId,
        to_entity_id: db.entityId,
        relation_type: 'depends_on',
      });
      const integration = await call('POST', '/v1/integrations', {
        name: 'Prometheus',
        kind: 'alertmanager',
        entity_rules: [{ match: { service: 'orders-db' }, entity: 'svc/e1' }],
      });
      const ingest = async (status: 'firing' | 'resolved') => {
        const res = await api.request('POST', `/in/${integration.token}`, {
          body: webhook(status, 'critical', 'orders-db primary is down'),
        });
        expect(res.status, res.text).toBe(202);
        await api.drainChanges();
      };
      for (const e of [db, shop]) await fx.result(e.checkId, true);

      // 1. Alertmanager holds Orders DB down: its incident opens, moved by the outside check.
      await ingest('firing');
      const [root] = await unresolved(db.entityId);
      expect(root).toMatchObject({ entity_id: db.entityId, state: 'open' });
      const opened = await call('GET', `/v1/incidents/${root.id}`);
      const [outside] = (await call('GET', `/v1/checks?entity_id=${db.entityId}`)).filter(
        (c: Json) => c.check_type === 'outside',
      );
      expect(opened.timeline[0]).toMatchObject({
        type: 'transition',
        to_state: 'down',
        check_id: outside.id,
      });

      // 2. Shop API's check fails: it joins Orders DB's incident instead of opening its own.
      await fx.result(shop.checkId, false);
      expect((await unresolved(shop.entityId)).map((i: Json) => i.id)).toEqual([root.id]);
      const joined = await call('GET', `/v1/incidents/${root.id}`);
      expect(joined.affected).toEqual([
        {
          entity_id: shop.entityId,
          name: 'Shop API',
          state: 'down',
          at: expect.any(String),
          own_incident_id: null,
        },
      ]);
      expect(joined.timeline.filter((e: Json) => e.type === 'affected').map((e: Json) => e.text)).toEqual([
        'affected: Shop API (down)',
      ]);

      // 3. Resolved in Alertmanager while Shop API is still down: Shop API gets its own incident.
      await ingest('resolved');
      expect((await call('GET', `/v1/incidents/${root.id}`)).state).toBe('resolved');
      const own = await unresolved(shop.entityId);
      expect(own).toHaveLength(1);
      expect(own[0]).toMatchObject({ entity_id: shop.entityId, state: 'open' });
      expect((await call('GET', `/v1/incidents/${root.id}`)).affected[0]).toMatchObject({
        own_incident_id: own[0].id,
      });

      // 4. Shop API up: its own incident resolves; nothing is left open.
      await fx.result(shop.checkId, true);
      expect(await unresolved(shop.entityId)).toEqual([]);
      expect(await unresolved(db.entityId)).toEqual([]);
    });

    it('acknowledges the root cause’s incident when a sender acknowledges an affected entity’s alert, and marks the affected entity’s alerts when it is acknowledged in Vigil', async () => {
      const db = await fx.entityWithCheck('Orders DB');
      const shop = await fx.entityWithCheck('Shop API');
      await call('POST', '/v1/relations', {
        from_entity_id: shop.entityId,
        to_entity_id: db.entityId,
        relation_type: 'depends_on',
      });
      const shopSlug = ((await call('GET', '/v1/blueprints/svc/entities')) as Json[]).find(
        (e) => e.id === shop.entityId,
      )?.slug;
      const pd = await call('POST', '/v1/integrations', {
        name: 'Datadog',
        kind: 'pagerduty',
        entity_rules: [{ match: { service: 'shop' }, entity: `svc/${shopSlug}` }],
      });
      const enqueue = pagerDutyEnqueue(api, pd.routing_key, 'shop');
      for (const e of [db, shop]) await fx.result(e.checkId, true);

      // Orders DB's probe fails: the root cause's incident. Datadog then says Shop API is failing.
      await fx.result(db.checkId, false);
      const [root] = await unresolved(db.entityId);
      await enqueue('trigger', 'shop-1');
      expect((await unresolved(shop.entityId)).map((i: Json) => i.id)).toEqual([root.id]);

      // Datadog's acknowledge of Shop API's alert acknowledges the incident that covers Shop API.
      await enqueue('acknowledge', 'shop-1');
      expect(await call('GET', `/v1/incidents/${root.id}`)).toMatchObject({
        state: 'acknowledged',
        acknowledged_by: pd.id,
      });

      // The other way: Shop API's next alert is marked when the root's incident is acknowledged in Vigil.
      await fx.result(db.checkId, true);
      expect(await unresolved(db.entityId)).toEqual([]);
      await enqueue('resolve', 'shop-1');
      await fx.result(shop.checkId, true);
      await fx.result(db.checkId, false);
      const [again] = await unresolved(db.entityId);
      await enqueue('trigger', 'shop-2');
      expect((await unresolved(shop.entityId)).map((i: Json) => i.id)).toEqual([again.id]);
      await call('POST', `/v1/incidents/${again.id}/acknowledge`);
      await api.drainChanges();
      const alerts = await call('GET', `/v1/outside-alerts?entity_id=${shop.entityId}&status=open`);
      expect(alerts.alerts.map((a: Json) => [a.dedup_key, a.status])).toEqual([['shop-2', 'acknowledged']]);
    });
  },
);
