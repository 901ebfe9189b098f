import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpsServer, type TestHttpServer } from '../probes/support/http-server.ts';
import { signalGroup, startServeProcess } from '../support/serve-process.ts';
import { createTlsFixtures } from '../support/tls-fixtures.ts';

/**
 * A receiver with a certificate from the user's own CA (docs/notifications.md "Receiving on your
 * own machine or LAN"). Node reads NODE_EXTRA_CA_CERTS once, when the process starts, so setting
 * it inside this test process would change nothing: each case starts a real Vigil process (the
 * entry point `npm start` runs) with or without it, and sends a test alert through the API.
 */

const dir = mkdtempSync(join(tmpdir(), 'vigil-extra-ca-'));
const tls = createTlsFixtures();
const caFile = join(dir, 'my-ca.pem');
writeFileSync(caFile, tls.caCert);
let receiver: TestHttpServer;

beforeAll(async () => {
  receiver = await startHttpsServer(tls.valid);
});
afterAll(async () => {
  await receiver.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Starts Vigil with `env`, adds a webhook channel to the receiver and answers the test send's delivery. */
async function testSendWith(name: string, env: Record<string, string>) {
  const proc = await startServeProcess({
    VIGIL_DATA_DIR: join(dir, name),
    VIGIL_EGRESS_ALLOW: '127.0.0.1/32',
    ...env,
  });
  try {
    const key = /vgl_[0-9A-Za-z]{38}/.exec(proc.stdout())?.[0] ?? '';
    const api = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${proc.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      // biome-ignore lint/suspicious/noExplicitAny: test responses are inspected freely
      return { status: res.status, body: (await res.json()) as any };
    };
    await api('POST', '/v1/blueprints', { slug: 'svc', name: 'Service' });
    const entity = await api('POST', '/v1/blueprints/svc/entities', { slug: 'api', name: 'API' });
    const check = await api('POST', '/v1/checks', {
      entity_id: entity.body.id,
      check_type: 'push',
      interval_seconds: 3600,
    });
    const channel = await api('POST', `/v1/checks/${check.body.id}/policy/channels`, {
      channel_type: 'webhook',
      config: { url: `${receiver.origin}/ok` },
    });
    expect(channel.status, JSON.stringify(channel.body)).toBe(201);
    const sent = await api('POST', `/v1/checks/${check.body.id}/policy/test`);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    return sent.body[0];
  } finally {
    signalGroup(proc, 'SIGTERM');
    await proc.exited;
  }
}

describe('an HTTPS receiver with a certificate from your own CA', () => {
  it('fails naming NODE_EXTRA_CA_CERTS when Vigil was started without the CA', async () => {
    const delivery = await testSendWith('without', {});
    expect(delivery).toMatchObject({
      status: 'failed',
      error:
        "certificate issued by an unknown CA; if the receiver uses a self-signed certificate or one from your own CA, start Vigil with NODE_EXTRA_CA_CERTS set to that CA's certificate file (PEM)",
    });
  }, 90_000);

  it('is sent to when Vigil was started with NODE_EXTRA_CA_CERTS naming the CA', async () => {
    const before = receiver.requests.length;
    const delivery = await testSendWith('with', { NODE_EXTRA_CA_CERTS: caFile });
    expect(delivery).toMatchObject({ status: 'sent', error: null });
    expect(receiver.requests.length).toBe(before + 1);
  }, 90_000);
});
