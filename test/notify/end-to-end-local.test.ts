import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  createEntity,
  createHttpCheck,
  eventually,
  startTarget,
  type Target,
} from '../local/scheduler-helpers.ts';
import { type LocalHarness, startLocalHarness } from '../support/api-harness.ts';
import { createTlsFixtures } from '../support/tls-fixtures.ts';
import { type Receiver, startReceiver } from './channels/receiver.ts';

const SECRET = 'whsec-end-to-end';

let api: LocalHarness;
let receiver: Receiver;
let target: Target;
let healthy = true;

beforeAll(async () => {
  const tls = createTlsFixtures();
  receiver = await startReceiver(tls.valid, SECRET);
  target = await startTarget(() => (healthy ? 200 : 503));
  api = await startLocalHarness({ env: { VIGIL_EGRESS_ALLOW: '127.0.0.0/8' }, egress: { ca: [tls.caCert] } });
});

afterAll(async () => {
  await api?.close();
  await receiver?.close();
  await target?.close();
});

const webhooks = () => receiver.received.filter((r) => r.path === '/webhook');

describe('alerts end to end on the local runtime', () => {
  it('delivers a signed state-change event on the change, and the recovery too', async () => {
    const entity = await createEntity(api);
    const check = await createHttpCheck(api, entity.id, target.url, {
      failure_threshold: 1,
      name: 'Checkout health',
    });
    const policy = await api.request('POST', `/v1/checks/${check.id}/policy`, {
      key: api.adminKey,
      body: { cooldown_seconds: 0 },
    });
    expect([200, 201]).toContain(policy.status);
    await call(api, 'POST', `/v1/checks/${check.id}/policy/channels`, 201, {
      channel_type: 'webhook',
      config: { url: `${receiver.origin}/webhook`, secret: SECRET },
    });
    // The first success (unknown -> up) alerts no one.
    await eventually(
      async () => (await call(api, 'GET', `/v1/checks/${check.id}`, 200)).state === 'up',
      'check up',
    );

    healthy = false;
    const down = await eventually(() => webhooks()[0], 'the down alert at the receiver', 10_000);
    const receivedAtMs = Date.now();
    const event = JSON.parse(down.body.toString('utf8'));
    expect(down.signatureValid).toBe(true);
    expect(down.headers['x-service-delivery']).toMatch(/^dlv_/);
    expect(event).toMatchObject({
      entity_id: entity.id,
      check_id: check.id,
      tenant_id: api.tenantId,
      from_state: 'up',
      to_state: 'down',
      check_name: 'Checkout health',
    });
    expect(event.transition_id).toMatch(/^trn_/);
    // Sent after the change (how soon is not asserted: the machine running the suite may be busy).
    expect(Date.parse(event.timestamp)).toBeLessThanOrEqual(receivedAtMs);

    healthy = true;
    const up = await eventually(() => webhooks()[1], 'the recovery at the receiver', 10_000);
    expect(JSON.parse(up.body.toString('utf8'))).toMatchObject({ from_state: 'down', to_state: 'up' });
    expect(up.signatureValid).toBe(true);

    // The receiver has the request before its sender has the answer and logs the delivery as sent.
    const logs = async () => (await call(api, 'GET', `/v1/notify/logs?check_id=${check.id}`, 200)).logs;
    await expect
      .poll(async () => (await logs()).map((l: { status: string }) => l.status))
      .toEqual(['sent', 'sent', 'skipped']);
    expect((await logs())[2].reason).toBe('first result');
  });

  it('answers a send-test with the records of the real sends', async () => {
    const entity = await createEntity(api);
    const check = await createHttpCheck(api, entity.id, target.url, { enabled: false });
    await call(api, 'POST', `/v1/checks/${check.id}/policy/channels`, 201, {
      channel_type: 'webhook',
      config: { url: `${receiver.origin}/webhook`, secret: SECRET },
    });
    const before = webhooks().length;
    const records = await call(api, 'POST', `/v1/checks/${check.id}/policy/test`, 200);
    expect(records.map((r: { status: string; kind: string }) => `${r.kind}:${r.status}`)).toEqual([
      'test:sent',
    ]);
    expect(webhooks()).toHaveLength(before + 1);
    expect(webhooks().at(-1)?.signatureValid).toBe(true);

    const other = await api.createTenant('Elsewhere');
    const foreign = await api.request('POST', `/v1/checks/${check.id}/policy/test`, { key: other.key });
    expect(foreign.status).toBe(404);
  });
});
