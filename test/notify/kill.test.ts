import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { eventually } from '../local/scheduler-helpers.ts';
import {
  callServer,
  type ServeProcess,
  servedPushCheck,
  signalGroup,
  startServeProcess,
} from '../support/serve-process.ts';
import { createTlsFixtures } from '../support/tls-fixtures.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'vigil-notify-kill-'));
const tls = createTlsFixtures();
const caFile = join(dataDir, 'test-ca.pem');
writeFileSync(caFile, tls.caCert);

/** Requests the receiver read; it answers none until `answering` is set (the server dies mid-send). */
const requests: { delivery: string | undefined; body: string }[] = [];
let answering = false;
const receiver: Server = createServer(tls.valid, (req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const delivery = req.headers['x-service-delivery'];
    requests.push({
      delivery: typeof delivery === 'string' ? delivery : undefined,
      body: Buffer.concat(chunks).toString(),
    });
    if (answering) res.writeHead(204).end();
  });
});

afterAll(async () => {
  receiver.closeAllConnections();
  receiver.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('notifications across a kill -9', () => {
  it('delivers the alert after a restart when the process died between the state change and the send', async () => {
    receiver.listen(0, '127.0.0.1');
    await once(receiver, 'listening');
    const address = receiver.address();
    if (address === null || typeof address === 'string') throw new Error('no receiver port');
    const env = { VIGIL_DATA_DIR: dataDir, VIGIL_EGRESS_ALLOW: '127.0.0.0/8', NODE_EXTRA_CA_CERTS: caFile };

    let proc: ServeProcess = await startServeProcess(env);
    const key = /vgl_[0-9A-Za-z]{38}/.exec(proc.stdout())?.[0] ?? '';
    let base = proc.url;
    const checkId = await servedPushCheck(
      base,
      key,
      { slug: 'svc', name: 'Service' },
      { slug: 'api', name: 'API' },
    );
    const channel = await callServer(base, key, 'POST', `/v1/checks/${checkId}/policy/channels`, {
      channel_type: 'webhook',
      config: { url: `https://127.0.0.1:${address.port}/hook` },
    });
    expect(channel.status).toBe(201);

    const pushed = await callServer(base, key, 'POST', `/v1/checks/${checkId}/results`, {
      success: false,
      latency_ms: 3,
      error_message: 'disk full',
    });
    expect(pushed.status).toBe(201);
    // The send has started and is not answered: the process dies before it learns the outcome.
    await eventually(() => requests.length >= 1, 'the first send at the receiver', 15_000);
    signalGroup(proc, 'SIGKILL');
    await proc.exited;

    answering = true;
    proc = await startServeProcess(env);
    base = proc.url;
    try {
      await eventually(() => requests.length >= 2, 'the send after the restart', 15_000);
      const logs = await eventually(async () => {
        const res = await callServer(base, key, 'GET', `/v1/notify/logs?check_id=${checkId}`);
        return res.body?.logs?.[0]?.status === 'sent' ? res.body.logs : undefined;
      }, 'the delivery logged sent');
      expect(logs).toHaveLength(1);
      expect(requests[1]?.delivery).toBe(requests[0]?.delivery);
      expect(requests[1]?.delivery).toBe(logs[0].id);
      expect(JSON.parse(requests[1]?.body ?? '{}')).toMatchObject({
        check_id: checkId,
        to_state: 'down',
      });
    } finally {
      signalGroup(proc, 'SIGTERM');
      await proc.exited;
    }
  }, 90_000);
});
