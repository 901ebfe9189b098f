import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newCheck, newEntity, quietTcpCheck } from '../checks/check-fixtures.ts';
import { startHttpServer, type TestHttpServer } from '../probes/support/http-server.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { ALLOW_ADVICE, mapResolver } from '../support/egress-names.ts';

/**
 * Alerts to a receiver on the user's own machine or LAN (issue 25, item 4): a refusal names the
 * setting that would allow the address (VIGIL_EGRESS_ALLOW locally; the deployment setting
 * vigil:egressAllow in the cloud), at create (400 at config.url) and at send (the test-send
 * result and the delivery log); an allowed range may use http://, everything else needs https://.
 */

/** Host names these tests resolve; `moving.lan.test` is pointed elsewhere after its channel is made. */
const names = new Map<string, string>([
  ['receiver.lan.test', '127.0.0.1'],
  ['hooks.public.test', '93.184.216.34'],
  ['nas.lan.test', '192.168.1.20'],
]);
const resolve = mapResolver(names);

const ALLOW = ALLOW_ADVICE;
const PRIVATE = 'a private address; Vigil sends to private or loopback addresses';
const CLEARTEXT = {
  local:
    'use https://, since http:// goes only to ranges VIGIL_EGRESS_ALLOW allows (your own machine or LAN)',
  lambda:
    'use https://, since http:// goes only to ranges VIGIL_EGRESS_ALLOW (vigil:egressAllow) allows (your own machine or LAN)',
};

describe.each(runtimes)('alerts to your own receiver ($runtime runtime)', ({ runtime, start }) => {
  let api: ApiHarness;
  let receiver: TestHttpServer;
  let entityId: string;
  const addChannel = (checkId: string, body: unknown) =>
    api.request('POST', `/v1/checks/${checkId}/policy/channels`, { key: api.adminKey, body });
  const testSend = (checkId: string) =>
    api.request('POST', `/v1/checks/${checkId}/policy/test`, { key: api.adminKey });

  beforeAll(async () => {
    receiver = await startHttpServer();
    api = await start({ env: { VIGIL_EGRESS_ALLOW: '127.0.0.0/8' }, egress: { resolve } });
    entityId = await newEntity(api);
  });
  afterAll(async () => {
    await api.close();
    await receiver.close();
  });

  it('sends to http:// receivers in the allowed range, for every URL channel type', async () => {
    const checkId = await newCheck(api, quietTcpCheck(entityId));
    const port = receiver.port;
    const bodies = [
      { channel_type: 'webhook', config: { url: `http://127.0.0.1:${port}/ok` } },
      { channel_type: 'ntfy', config: { url: `http://receiver.lan.test:${port}/ok` } },
      { channel_type: 'slack', config: { url: `http://127.0.0.1:${port}/ok` } },
      { channel_type: 'discord', config: { url: `http://receiver.lan.test:${port}/ok` } },
    ];
    for (const body of bodies) {
      const res = await addChannel(checkId, body);
      expect(res.status, res.text).toBe(201);
    }
    const before = receiver.requests.length;
    const sent = await testSend(checkId);
    expect(sent.status, sent.text).toBe(200);
    expect(sent.body.map((d: { status: string; error: string | null }) => [d.status, d.error])).toEqual(
      bodies.map(() => ['sent', null]),
    );
    expect(receiver.requests.length - before).toBe(4);
  });

  it('refuses http:// to a public address at create, saying to use https:// and naming the setting', async () => {
    const checkId = await newCheck(api, quietTcpCheck(entityId));
    for (const channel_type of ['webhook', 'ntfy', 'slack', 'discord']) {
      const res = await addChannel(checkId, {
        channel_type,
        config: { url: 'http://hooks.public.test/alerts' },
      });
      expect(res.status, res.text).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(res.body.details).toHaveLength(1);
      expect(res.body.details[0].path).toBe('config.url');
      expect(res.body.details[0].message).toBe(
        `hooks.public.test resolves to 93.184.216.34, a public address; ${CLEARTEXT[runtime]}`,
      );
    }
    // The same URL over https is fine: only clear text is kept to the allowed ranges.
    const https = await addChannel(checkId, {
      channel_type: 'webhook',
      config: { url: 'https://hooks.public.test/alerts' },
    });
    expect(https.status, https.text).toBe(201);
    expect(await api.app.channels.listForCheck(checkId)).toHaveLength(1);
  });

  it('refuses a private or loopback receiver outside the range, naming the setting and an example', async () => {
    const checkId = await newCheck(api, quietTcpCheck(entityId));
    const cases = [
      ['https://10.1.2.3/hook', `10.1.2.3 is ${PRIVATE} ${ALLOW[runtime]('10.1.2.3/32')}`],
      [
        'http://nas.lan.test/hook',
        `nas.lan.test resolves to 192.168.1.20, ${PRIVATE} ${ALLOW[runtime]('192.168.1.20/32')}`,
      ],
      ['https://[fd00::5]/hook', `fd00::5 is ${PRIVATE} ${ALLOW[runtime]('fd00::5/128')}`],
    ];
    for (const [url, message] of cases) {
      const res = await addChannel(checkId, { channel_type: 'webhook', config: { url } });
      expect(res.status, res.text).toBe(400);
      expect(res.body.details).toEqual([{ path: 'config.url', message }]);
    }
    const metadata = await addChannel(checkId, {
      channel_type: 'webhook',
      config: { url: 'https://169.254.169.254/latest' },
    });
    expect(metadata.body.details).toEqual([
      {
        path: 'config.url',
        message:
          '169.254.169.254 is a cloud metadata address, which hands out cloud credentials; Vigil never sends to it, whatever VIGIL_EGRESS_ALLOW lists',
      },
    ]);
    expect(await api.app.channels.listForCheck(checkId)).toEqual([]);
  });

  it('fails a send whose host name now resolves outside the range, naming the setting in the result and the log', async () => {
    const checkId = await newCheck(api, quietTcpCheck(entityId));
    names.set('moving.lan.test', '127.0.0.1');
    const made = await addChannel(checkId, {
      channel_type: 'webhook',
      config: { url: `http://moving.lan.test:${receiver.port}/ok` },
    });
    expect(made.status, made.text).toBe(201);

    names.set('moving.lan.test', '10.9.9.9');
    const privateNow = await testSend(checkId);
    const privateError = `not sent: moving.lan.test resolves to 10.9.9.9, ${PRIVATE} ${ALLOW[runtime]('10.9.9.9/32')}`;
    expect(privateNow.body).toMatchObject([{ status: 'failed', error: privateError }]);

    // Over http://, a public address is refused too: clear text stays inside the allowed ranges.
    names.set('moving.lan.test', '93.184.216.34');
    const publicNow = await testSend(checkId);
    expect(publicNow.body).toMatchObject([
      {
        status: 'failed',
        error: `not sent: moving.lan.test resolves to 93.184.216.34, a public address; ${CLEARTEXT[runtime]}`,
      },
    ]);

    const logs = await api.request('GET', `/v1/notify/logs?check_id=${checkId}`, { key: api.adminKey });
    expect(logs.body.logs.map((l: { error: string }) => l.error)).toContain(privateError);
  });
});
