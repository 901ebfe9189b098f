import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActionRecord } from '../../lib/actions/items/action-items.ts';
import { createCloudApp } from '../../lib/cloud/http-composition.ts';
import { startLocalRuntime } from '../../lib/local/runtime.ts';
import { loadConfig } from '../../lib/platform/config.ts';
import { newId } from '../../lib/platform/ids.ts';
import { channel, sampleAlert } from '../notify/channels/alert-fixture.ts';
import { createTlsFixtures, type TlsFixtures } from '../support/tls-fixtures.ts';
import { type PoolReceiver, startPoolReceiver } from './pool-receiver.ts';

/**
 * Both runtimes' compositions hand channels and actions the process's kept-alive pools: sends to
 * one receiver share a connection, and the local runtime's stop closes it.
 */

let tls: TlsFixtures;
let receiver: PoolReceiver;
let dataDir: string;
const env = { VIGIL_LOG_LEVEL: 'silent', VIGIL_EGRESS_ALLOW: '127.0.0.1/32' };

beforeAll(async () => {
  tls = createTlsFixtures();
  receiver = await startPoolReceiver(tls.valid, '127.0.0.1');
  dataDir = mkdtempSync(join(tmpdir(), 'vigil-egress-pool-'));
});

afterAll(async () => {
  await receiver?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function action(tenantId: string): ActionRecord {
  const now = new Date().toISOString();
  return {
    id: newId('act'),
    tenant_id: tenantId,
    name: 'restart payments',
    url: `https://127.0.0.1:${receiver.port}/restart`,
    method: 'POST',
    headers: {},
    body_template: '{"entity":"{{entity_name}}"}',
    trigger_type: 'manual',
    check_id: null,
    trigger_to_state: null,
    interval_seconds: null,
    timeout_ms: 5000,
    pipeline_timeout_seconds: 3600,
    next_run_at: null,
    created_at: now,
    updated_at: now,
    version: 1,
  };
}

describe('the pools in the compositions', () => {
  it('the local runtime sends alerts and action runs on one kept connection and closes it at stop', async () => {
    const runtime = await startLocalRuntime({
      config: { ...loadConfig('local', env), dataDir, port: 0 },
      host: '127.0.0.1',
      scheduler: false,
      actionSchedule: false,
      egress: { ca: [tls.caCert] },
    });
    try {
      const before = receiver.connections();
      const webhook = channel('webhook', { url: `https://127.0.0.1:${receiver.port}/hook` });
      expect(await runtime.app.senders.send(webhook, sampleAlert())).toMatchObject({ ok: true });
      expect(await runtime.app.senders.send(webhook, sampleAlert())).toMatchObject({ ok: true });
      const [tenant] = await runtime.app.tenants.listTenants();
      const run = await runtime.app.actionRunner.run({
        action: action(tenant?.id ?? 'tnt_missing'),
        trigger: 'manual',
        executionId: newId('exe'),
      });
      expect(run).toMatchObject({ dispatch_status: 'success', status_code: 200 });
      expect(receiver.connections() - before).toBe(1);
      expect(receiver.open()).toBe(1);
    } finally {
      await runtime.stop();
    }
    await expect.poll(() => receiver.open()).toBe(0);
  });

  it('the cloud composition sends alerts on one kept connection', async () => {
    const cloud = createCloudApp(loadConfig('cloud', env), { egress: { ca: [tls.caCert] } });
    try {
      const before = receiver.connections();
      const webhook = channel('webhook', { url: `https://127.0.0.1:${receiver.port}/hook` });
      for (let i = 0; i < 3; i += 1)
        expect(await cloud.app.senders.send(webhook, sampleAlert())).toMatchObject({ ok: true });
      expect(receiver.connections() - before).toBe(1);
    } finally {
      cloud.sqs.destroy();
      await cloud.app.senders.close();
    }
  });
});
