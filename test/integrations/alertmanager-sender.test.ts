import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ApiHarness, adminCall, bothRuntimes } from '../support/api-harness.ts';
import { startHttpFront } from '../support/http-front.ts';

/**
 * The real sender: Debian's prometheus-alertmanager (0.25), started on 127.0.0.1 with one receiver
 * that has a `webhook_configs` entry posting to an alertmanager integration and a
 * `pagerduty_configs` entry posting Events API v2 to a pagerduty integration's /v2/enqueue, both on
 * Vigil's HTTP server: the local runtime's own, or a real HTTP front on 127.0.0.1 before the cloud's
 * api handler (test/support/http-front.ts). Alerts are fed through Alertmanager's API v2: each
 * fires, is grouped and sent, and the entity goes down through its outside checks; then it
 * resolves, and the entity is up again. Both runtimes.
 */

const ALERTMANAGER = '/usr/bin/prometheus-alertmanager';

async function freePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  probe.close();
  await once(probe, 'close');
  return port;
}

describe.each(bothRuntimes)('Alertmanager as a sender ($runtime)', ({ start }) => {
  let h: ApiHarness;
  let front: { url: string; close(): Promise<void> } | undefined;
  let alertmanager: ChildProcess;
  let amUrl = '';
  let dir = '';
  let webhook: { id: string; token: string };
  let pagerduty: { id: string; token: string };

  beforeAll(async () => {
    h = await start();
    front = await startHttpFront(h);
    const vigil = front.url;
    await adminCall(h, 'POST', '/v1/blueprints', { slug: 'service', name: 'Service', fields: [] });
    await adminCall(h, 'POST', '/v1/blueprints/service/entities', {
      slug: 'orders-db',
      name: 'Orders DB',
      fields: {},
    });
    const made = async (kind: string): Promise<{ id: string; token: string }> =>
      adminCall(h, 'POST', '/v1/integrations', {
        name: kind,
        kind,
        entity_rules: [{ match: {}, entity: 'service/{{labels.service}}' }],
      });
    webhook = await made('alertmanager');
    pagerduty = await made('pagerduty');

    dir = mkdtempSync(join(tmpdir(), 'vigil-am-'));
    writeFileSync(
      join(dir, 'alertmanager.yml'),
      `route:
  receiver: vigil
  group_by: [alertname, service]
  group_wait: 0s
  group_interval: 1s
  repeat_interval: 1h
receivers:
  - name: vigil
    webhook_configs:
      - url: ${vigil}/in/${webhook.token}
        send_resolved: true
    pagerduty_configs:
      - routing_key: ${pagerduty.token}
        url: ${vigil}/v2/enqueue
        send_resolved: true
`,
    );
    const port = await freePort();
    amUrl = `http://127.0.0.1:${port}`;
    alertmanager = spawn(
      ALERTMANAGER,
      [
        `--config.file=${join(dir, 'alertmanager.yml')}`,
        `--storage.path=${join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
        '--cluster.listen-address=',
        '--log.level=warn',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    await vi.waitFor(
      async () => {
        if ((await fetch(`${amUrl}/-/ready`).catch(() => undefined))?.ok !== true)
          throw new Error('Alertmanager not ready');
      },
      { timeout: 30_000, interval: 100 },
    );
  }, 60_000);

  afterAll(async () => {
    if (alertmanager && alertmanager.exitCode === null) {
      const exited = once(alertmanager, 'exit');
      alertmanager.kill('SIGTERM');
      await exited;
    }
    await front?.close();
    await h?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const post = (alerts: object[]) =>
    fetch(`${amUrl}/api/v2/alerts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(alerts),
    });

  const entityState = async () => {
    await h.drainChanges();
    return (await adminCall(h, 'GET', '/v1/blueprints/service/entities/orders-db')).state as string;
  };

  async function alertsOf(integrationId: string) {
    const body = await adminCall(h, 'GET', '/v1/outside-alerts');
    return (
      body.alerts as {
        integration_id: string;
        status: string;
        entity_id: string;
        summary: string;
        count: number;
      }[]
    ).filter((a) => a.integration_id === integrationId);
  }

  it('fires, groups and resolves through webhook_configs and pagerduty_configs', async () => {
    const alert = (endsAt?: string) => ({
      labels: {
        alertname: 'OrdersDbDown',
        service: 'orders-db',
        severity: 'critical',
        instance: 'db-1:9100',
      },
      annotations: { summary: 'orders-db does not answer' },
      ...(endsAt ? { endsAt } : {}),
    });
    expect((await post([alert()])).ok).toBe(true);
    const fired = await vi.waitFor(
      async () => {
        const [byWebhook] = await alertsOf(webhook.id);
        const [byPagerDuty] = await alertsOf(pagerduty.id);
        if (byWebhook?.status !== 'triggered' || byPagerDuty?.status !== 'triggered')
          throw new Error('both integrations do not hold the firing alert yet');
        return { byWebhook, byPagerDuty };
      },
      { timeout: 30_000, interval: 200 },
    );
    // The webhook's alert is Alertmanager's alert, on the entity its service label names, which is down.
    const entity = await adminCall(h, 'GET', '/v1/blueprints/service/entities/orders-db');
    expect(fired.byWebhook).toMatchObject({ entity_id: entity.id, summary: 'orders-db does not answer' });
    expect(await entityState()).toBe('down');
    // pagerduty_configs sends one event per group; its summary is Alertmanager's default description.
    expect(fired.byPagerDuty.summary).toMatch(/OrdersDbDown/);

    // Resolved as Prometheus resolves: the same alert, ending now (after it started).
    expect((await post([alert(new Date().toISOString())])).ok).toBe(true);
    await vi.waitFor(
      async () => {
        const [byWebhook] = await alertsOf(webhook.id);
        const [byPagerDuty] = await alertsOf(pagerduty.id);
        if (byWebhook?.status !== 'resolved' || byPagerDuty?.status !== 'resolved')
          throw new Error(`not both resolved yet: ${byWebhook?.status} ${byPagerDuty?.status}`);
      },
      { timeout: 30_000, interval: 200 },
    );
    expect(await entityState()).toBe('up');
    const log = await adminCall(h, 'GET', `/v1/integrations/${webhook.id}/payloads`);
    expect(log.payloads.map((p: { outcome: string }) => p.outcome)).toContain('accepted');
    expect(log.payloads.every((p: { outcome: string }) => p.outcome !== 'refused')).toBe(true);
  }, 90_000);
});
