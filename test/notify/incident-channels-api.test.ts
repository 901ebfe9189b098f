import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpTransport } from '../../lib/egress/egress.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { mapResolver } from '../support/egress-names.ts';
import { pushCheckFixtures } from '../support/push-fixtures.ts';
import { type OpsgenieReceiver, startOpsgenie } from '../support/receivers/opsgenie.ts';
import { type PagerDutyReceiver, startPagerDuty } from '../support/receivers/pagerduty.ts';
import { createTlsFixtures, type TlsFixtures } from '../support/tls-fixtures.ts';

/**
 * PagerDuty and Opsgenie channels end to end in both runtimes, against stand-ins that check the
 * documented requests: made through the API (keys write-only), the test send, and one incident from
 * its alert through its acknowledgement in Vigil to its recovery, all keyed by the incident's id.
 */

const ROUTING_KEY = 'R0ut1ngKeyOfTheVigilServ1ce00042';
const GENIE_KEY = '6f1c2a3b-1111-4222-8333-944455556666';

let tls: TlsFixtures;
let pd: PagerDutyReceiver;
let og: OpsgenieReceiver;

beforeAll(async () => {
  tls = createTlsFixtures();
  pd = await startPagerDuty(tls.valid, [ROUTING_KEY]);
  og = await startOpsgenie(tls.valid, [GENIE_KEY]);
});
afterAll(async () => {
  await pd?.close();
  await og?.close();
});

describe.each(runtimes)('PagerDuty and Opsgenie channels ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected freely
  const call = async (method: string, path: string, body?: unknown, expected?: number): Promise<any> => {
    const res = await api.request(method, path, { key: api.adminKey, body });
    if (expected !== undefined) expect(res.status, `${method} ${path}: ${res.text}`).toBe(expected);
    return res.body;
  };
  const settle = async () => {
    for (let round = 0; round < 3; round += 1) {
      await api.drainChanges();
      await api.runNotifyJobs();
    }
  };
  const fx = pushCheckFixtures(call, settle);

  beforeAll(async () => {
    // The providers' real host names, resolved to 127.0.0.1 and connected to the stand-ins.
    const transport: HttpTransport = (req) =>
      (req.url.hostname.endsWith('pagerduty.com') ? pd : og).transport(req);
    const resolve = mapResolver(
      new Map([
        ['events.pagerduty.com', '127.0.0.1'],
        ['api.eu.opsgenie.com', '127.0.0.1'],
      ]),
    );
    api = await start({
      env: { VIGIL_EGRESS_ALLOW: '127.0.0.0/8' },
      egress: { ca: [tls.caCert], resolve, transport },
    });
  });
  afterAll(async () => {
    await api?.close();
  });

  it('sends the test, then one incident: triggered, acknowledged in Vigil, resolved', async () => {
    pd.events.length = 0;
    og.calls.length = 0;
    const { entityId, checkId } = await fx.entityWithCheck('Payments API');
    const pdRes = await api.request('POST', `/v1/checks/${checkId}/policy/channels`, {
      key: api.adminKey,
      body: { channel_type: 'pagerduty', config: { routing_key: ROUTING_KEY } },
    });
    expect(pdRes.status, pdRes.text).toBe(201);
    expect(pdRes.body.config).toEqual({ routing_key: '********', region: 'us' });
    const ogRes = await api.request('POST', `/v1/checks/${checkId}/policy/channels`, {
      key: api.adminKey,
      body: { channel_type: 'opsgenie', config: { api_key: GENIE_KEY, region: 'eu' } },
    });
    expect(ogRes.status, ogRes.text).toBe(201);
    expect(ogRes.text).not.toContain(GENIE_KEY);
    await call('POST', `/v1/checks/${checkId}/policy`, { cooldown_seconds: 0 }, 201);

    const test = await call('POST', `/v1/checks/${checkId}/policy/test`, undefined, 200);
    expect(JSON.stringify(test)).toContain('sent');
    expect(pd.events.map((e) => e.event_action)).toEqual(['trigger', 'resolve']);
    expect(og.calls.map((c) => c.action)).toEqual(['create', 'close']);

    await fx.result(checkId, true);
    await fx.result(checkId, false);
    const [incident] = (await call('GET', `/v1/incidents?entity_id=${entityId}`, undefined, 200)).incidents;
    expect(incident?.state).toBe('open');
    const id = String(incident.id);
    await expect.poll(() => pd.alerts.get(id)?.status).toBe('triggered');
    expect(og.alerts.get(id)).toMatchObject({ status: 'open', priority: 'P1' });

    await call('POST', `/v1/incidents/${id}/acknowledge`, undefined, 200);
    await settle();
    expect(pd.alerts.get(id)?.status).toBe('acknowledged');
    expect(og.alerts.get(id)?.acknowledged).toBe(true);
    const log = await call('GET', `/v1/notify/logs?check_id=${checkId}`, undefined, 200);
    const acks = log.logs.filter((d: { kind: string }) => d.kind === 'acknowledge');
    expect(
      acks.map((d: { channel_type: string; status: string }) => `${d.channel_type}:${d.status}`).sort(),
    ).toEqual(['opsgenie:sent', 'pagerduty:sent']);

    await fx.result(checkId, true);
    await settle();
    expect(pd.alerts.get(id)?.status).toBe('resolved');
    expect(og.alerts.get(id)?.status).toBe('closed');
    expect(JSON.stringify(log)).not.toContain(ROUTING_KEY);
  });
});
