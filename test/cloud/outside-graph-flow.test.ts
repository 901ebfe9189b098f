import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { alertmanagerWebhook } from '../support/alertmanager-webhook.ts';
import { alertToWebhook, entityWithPushCheck } from '../support/push-fixtures.ts';
import { notifyFlowRig } from './notify-flow.ts';

/**
 * Outside and inside in one graph on the cloud runtime (issue 77 point 4; the local flow:
 * test/integrations/outside-graph.test.ts): the Lambda handlers over DynamoDB Local and fauxqs.
 * Alertmanager's webhook holds Orders DB down through its outside check, whose webhook is told
 * with the alert's summary as the reason; Shop API, which depends on it, fails its own check and
 * is held by the upstream rule; the resolve brings Orders DB up and Shop API is told.
 */

const clock = createFakeClock(Date.parse('2026-03-04T09:00:00.000Z'));
const flow = notifyFlowRig(clock, { blueprint: { slug: 'svc', name: 'Service' } });
const { call, push } = flow;

// biome-ignore lint/suspicious/noExplicitAny: webhook bodies are inspected freely
const bodiesAt = (path: string): any[] =>
  flow.receiver.received.filter((r) => r.path === path).map((r) => JSON.parse(r.body.toString('utf8')));

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
    },
  ]);

describe('outside alerts in the dependency graph on the cloud runtime', () => {
  it('holds a dependent while an outside alert holds its upstream down, and tells it after the resolve', async () => {
    const db = await entityWithPushCheck(call, { slug: 'orders-db', name: 'Orders DB' });
    const shop = await entityWithPushCheck(call, { slug: 'shop-api', name: 'Shop API' });
    await call('POST', '/v1/relations', {
      from_entity_id: shop.entityId,
      to_entity_id: db.entityId,
      relation_type: 'depends_on',
    });
    const integration = await call('POST', '/v1/integrations', {
      name: 'Prometheus',
      kind: 'alertmanager',
      entity_rules: [{ match: { service: 'orders-db' }, entity: 'svc/orders-db' }],
    });
    const ingest = async (body: unknown) => {
      const res = await flow.h.request('POST', `/in/${integration.token}`, { body });
      expect(res.status, res.text).toBe(202);
      await flow.h.drainChanges();
    };
    const origin = flow.receiver.origin;
    await alertToWebhook(call, shop.checkId, { url: `${origin}/shop` }, { cooldown_seconds: 0 });
    await push(db.checkId, true);
    await push(shop.checkId, true);

    // An info alert makes the outside check (up); it gets a webhook like any check.
    await ingest(webhook('firing', 'info', 'replica lag 2 s'));
    const checks = await call('GET', `/v1/checks?entity_id=${db.entityId}`);
    const outside = checks.find((c: { check_type: string }) => c.check_type === 'outside');
    expect(outside).toMatchObject({ state: 'up', name: 'Prometheus' });
    await alertToWebhook(call, outside.id, { url: `${origin}/outside` }, { cooldown_seconds: 0 });

    await ingest(webhook('firing', 'critical', 'orders-db primary is down'));
    await push(shop.checkId, false);
    expect(bodiesAt('/outside')).toMatchObject([
      { kind: 'alert', to_state: 'down', check_name: 'Prometheus', reason: 'orders-db primary is down' },
    ]);
    expect(bodiesAt('/shop')).toEqual([]);
    const shopLogs = (await call('GET', `/v1/notify/logs?check_id=${shop.checkId}`)).logs as {
      kind: string;
      status: string;
      reason?: string;
    }[];
    expect(shopLogs.map((l) => `${l.kind}:${l.status}:${l.reason}`)).toContain(
      'alert:skipped:upstream Orders DB is down',
    );

    await ingest(webhook('resolved', 'critical', 'orders-db primary is down'));
    expect(bodiesAt('/outside').map((b) => b.to_state)).toEqual(['down', 'up']);
    expect(bodiesAt('/shop').map((b) => [b.kind, b.to_state])).toEqual([['alert', 'down']]);
  });
});
