import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChannelSenders } from '../../../lib/notify/channels/index.ts';
import type { ChannelSenders } from '../../../lib/notify/items/ports.ts';
import { createFakeClock } from '../../../lib/platform/clock.ts';
import { silentLogger } from '../../../lib/platform/logger.ts';
import { closedPort } from '../../probes/support/http-server.ts';
import { startNtfyReceiver } from '../../support/receivers/ntfy.ts';
import { createTlsFixtures, type TlsFixtures } from '../../support/tls-fixtures.ts';
import { channel, sampleAlert, sampleEvent } from './alert-fixture.ts';
import { type Receiver, startReceiver } from './receiver.ts';

const SECRET = 'whsec-test-4f1c2a';

let tls: TlsFixtures;
let receiver: Receiver;
let senders: ChannelSenders;

function sendersWith(options: { egressAllow?: string[]; ca?: string[]; publicUrl?: string } = {}) {
  return createChannelSenders({
    egressAllow: options.egressAllow ?? ['127.0.0.0/8'],
    natsUrls: [],
    natsPrefix: 'vigil',
    publicUrl: options.publicUrl,
    logger: silentLogger,
    ca: options.ca ?? [tls.caCert],
    clock: createFakeClock(),
  });
}

function lastRequest() {
  const request = receiver.received.at(-1);
  if (!request) throw new Error('the receiver got nothing');
  return request;
}

beforeAll(async () => {
  tls = createTlsFixtures();
  receiver = await startReceiver(tls.valid, SECRET);
  senders = sendersWith({ publicUrl: 'https://vigil.example.com/' });
});

afterAll(async () => {
  await senders.close();
  await receiver.close();
});

describe('webhook channel', () => {
  it('posts the state-change event with the check name, signed, with the delivery id', async () => {
    const webhook = channel('webhook', { url: `${receiver.origin}/webhook`, secret: SECRET });
    const outcome = await senders.send(webhook, sampleAlert({ reason: 'expected status 200, got 503' }));
    expect(outcome).toEqual({ ok: true, status_code: 204, error: null });
    const request = lastRequest();
    expect(request.signatureValid).toBe(true);
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['x-service-delivery']).toBe('dlv_01JTESTDELIVERY');
    expect(request.headers['x-service-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(JSON.parse(request.body.toString('utf8'))).toEqual({
      ...sampleEvent(),
      check_name: 'Payments health',
      kind: 'alert',
      reason: 'expected status 200, got 503',
    });
  });

  it("adds a scripted check's failing result as `evidence`: its id and the results page it heads", async () => {
    const webhook = channel('webhook', { url: `${receiver.origin}/webhook`, secret: SECRET });
    // A slot's result id: a ULID of the slot's time (2026-03-01T12:34:00.000Z).
    const resultId = `res_${ulid(Date.parse('2026-03-01T12:34:00.000Z'))}`;
    await senders.send(webhook, sampleAlert({ evidenceResultId: resultId }));
    expect(JSON.parse(lastRequest().body.toString('utf8')).evidence).toEqual({
      result_id: resultId,
      results_path: '/v1/checks/chk_01JTEST/results?until=2026-03-01T12:34:00.000Z&limit=1',
    });
    // Without a result to show (any other check), the body is the event as before.
    await senders.send(webhook, sampleAlert());
    expect(JSON.parse(lastRequest().body.toString('utf8'))).not.toHaveProperty('evidence');
  });

  it('sends the same delivery id and signature on every attempt', async () => {
    const webhook = channel('webhook', { url: `${receiver.origin}/webhook`, secret: SECRET });
    const alert = sampleAlert({ deliveryId: 'dlv_01JSAMEONRETRY' });
    await senders.send(webhook, alert);
    const first = lastRequest();
    await senders.send(webhook, alert);
    const second = lastRequest();
    expect(second.headers['x-service-delivery']).toBe('dlv_01JSAMEONRETRY');
    expect(second.headers['x-service-signature']).toBe(first.headers['x-service-signature']);
  });

  it('fails the signature check of a receiver holding a different secret', async () => {
    const webhook = channel('webhook', { url: `${receiver.origin}/webhook`, secret: 'another-secret' });
    const outcome = await senders.send(webhook, sampleAlert());
    expect(outcome).toEqual({ ok: false, status_code: 401, error: 'the endpoint answered 401' });
    expect(lastRequest().signatureValid).toBe(false);
  });

  it('sends no signature header without a secret', async () => {
    const webhook = channel('webhook', { url: `${receiver.origin}/plain` });
    expect((await senders.send(webhook, sampleAlert())).ok).toBe(true);
    expect(lastRequest().headers['x-service-signature']).toBeUndefined();
  });

  it('reports a non-2xx answer as a failed attempt with its status and the start of the answer', async () => {
    const webhook = channel('webhook', { url: `${receiver.origin}/status/500` });
    const outcome = await senders.send(webhook, sampleAlert());
    expect(outcome).toEqual({ ok: false, status_code: 500, error: 'the endpoint answered 500: answer 500' });
  });

  it('does not follow a redirect', async () => {
    const before = receiver.received.length;
    const outcome = await senders.send(
      channel('webhook', { url: `${receiver.origin}/redirect` }),
      sampleAlert(),
    );
    expect(outcome).toEqual({
      ok: false,
      status_code: null,
      error: 'the endpoint answered a redirect, which is not followed',
    });
    expect(receiver.received).toHaveLength(before + 1);
  });

  it('reports a refused connection in words', async () => {
    const port = await closedPort();
    const outcome = await senders.send(
      channel('webhook', { url: `https://127.0.0.1:${port}/x` }),
      sampleAlert(),
    );
    expect(outcome).toEqual({ ok: false, status_code: null, error: 'connection refused' });
  });

  it('refuses a receiver whose certificate no trusted CA issued', async () => {
    const untrusting = sendersWith({ ca: [] });
    const outcome = await untrusting.send(
      channel('webhook', { url: `${receiver.origin}/plain` }),
      sampleAlert(),
    );
    expect(outcome).toMatchObject({
      ok: false,
      status_code: null,
      error:
        "certificate issued by an unknown CA; if the receiver uses a self-signed certificate or one from your own CA, start Vigil with NODE_EXTRA_CA_CERTS set to that CA's certificate file (PEM)",
    });
  });
});

describe('SSRF guard at send time', () => {
  it('denies a loopback receiver that is not allow-listed, without connecting', async () => {
    const guarded = sendersWith({ egressAllow: [] });
    const before = receiver.received.length;
    const outcome = await guarded.send(
      channel('webhook', { url: `${receiver.origin}/webhook` }),
      sampleAlert(),
    );
    expect(outcome).toEqual({
      ok: false,
      status_code: null,
      error:
        'not sent: 127.0.0.1 is a loopback address; Vigil sends to private or loopback addresses only if VIGIL_EGRESS_ALLOW allows them (e.g. VIGIL_EGRESS_ALLOW=127.0.0.1/32)',
    });
    expect(receiver.received).toHaveLength(before);
  });

  it('denies a host name resolving to a private address, checked on connect', async () => {
    const guarded = createChannelSenders({
      egressAllow: ['127.0.0.0/8'],
      natsUrls: [],
      natsPrefix: 'vigil',
      logger: silentLogger,
      clock: createFakeClock(),
      resolve: async () => [{ address: '10.1.2.3', family: 4 }],
    });
    const outcome = await guarded.send(
      channel('slack', { url: 'https://hooks.internal.test/x' }),
      sampleAlert(),
    );
    expect(outcome.error).toBe(
      'not sent: hooks.internal.test resolves to 10.1.2.3, a private address; Vigil sends to private or loopback addresses only if VIGIL_EGRESS_ALLOW allows them (e.g. VIGIL_EGRESS_ALLOW=10.1.2.3/32)',
    );
  });

  it('never reaches a cloud metadata address, even when the allow-list covers it', async () => {
    const open = sendersWith({ egressAllow: ['0.0.0.0/0', '::/0'] });
    const outcome = await open.send(
      channel('ntfy', { url: 'https://169.254.169.254/latest' }),
      sampleAlert(),
    );
    expect(outcome.error).toBe(
      'not sent: 169.254.169.254 is a cloud metadata address, which hands out cloud credentials; Vigil never sends to it, whatever VIGIL_EGRESS_ALLOW lists',
    );
  });
});

describe('slack channel', () => {
  it('posts text plus Block Kit blocks naming entity, check, states, error, time and link', async () => {
    const slack = channel('slack', { url: `${receiver.origin}/services/T000/B000/XXXX` });
    expect((await senders.send(slack, sampleAlert())).ok).toBe(true);
    const request = lastRequest();
    expect(request.headers['content-type']).toBe('application/json');
    const payload = JSON.parse(request.body.toString('utf8'));
    expect(Object.keys(payload).sort()).toEqual(['blocks', 'text']);
    expect(payload.text).toContain('Payments API is down');
    expect(payload.blocks[0]).toEqual({
      type: 'header',
      text: { type: 'plain_text', text: 'Payments API is down', emoji: true },
    });
    const section = payload.blocks.find((b: { type: string }) => b.type === 'section');
    expect(section.text.type).toBe('mrkdwn');
    expect(section.text.text).toContain('*Check:* Payments health');
    expect(section.text.text).toContain('*Target:* GET https://payments.example.com/health');
    expect(section.text.text).toContain('*State:* up → down');
    expect(section.text.text).toContain('*Last error:* the endpoint answered 503');
    expect(section.text.text).toContain('*Time:* 2026-03-01 12:34:56 UTC');
    const actions = payload.blocks.find((b: { type: string }) => b.type === 'actions');
    expect(actions.elements[0].url).toBe('https://vigil.example.com/entities/service/payments-api');
  });

  it('escapes mrkdwn control characters so a name cannot ping a channel', async () => {
    const slack = channel('slack', { url: `${receiver.origin}/slack` });
    const alert = sampleAlert({ lastError: 'boom <!channel> & more' });
    await senders.send(slack, alert);
    const payload = JSON.parse(lastRequest().body.toString('utf8'));
    expect(payload.text).toContain('boom &lt;!channel&gt; &amp; more');
    expect(JSON.stringify(payload.blocks)).not.toContain('<!channel>');
  });
});

describe('discord channel', () => {
  it('posts content plus one embed coloured by state, with no mentions allowed', async () => {
    const discord = channel('discord', { url: `${receiver.origin}/api/webhooks/1/abc` });
    const colours: Record<string, number> = {};
    for (const to_state of ['down', 'degraded', 'up']) {
      const from_state = to_state === 'up' ? 'down' : 'up';
      expect((await senders.send(discord, sampleAlert({}, { from_state, to_state }))).ok).toBe(true);
      const payload = JSON.parse(lastRequest().body.toString('utf8'));
      expect(payload.embeds).toHaveLength(1);
      expect(payload.allowed_mentions).toEqual({ parse: [] });
      colours[to_state] = payload.embeds[0].color;
      if (to_state === 'down') {
        expect(payload.content).toBe('Payments API is down');
        expect(payload.embeds[0]).toMatchObject({
          title: 'Payments API is down',
          timestamp: '2026-03-01T12:34:56.789Z',
          url: 'https://vigil.example.com/entities/service/payments-api',
        });
        expect(payload.embeds[0].description).toContain('**State:** up → down');
      }
      if (to_state === 'up') expect(payload.content).toBe('Payments API recovered: it is up again');
    }
    expect(colours).toEqual({ down: 0xe5484d, degraded: 0xf5a524, up: 0x2eb67d });
  });
});

describe('ntfy channel', () => {
  it('posts a text body with Title, Priority, Tags, Click and the bearer token', async () => {
    const ntfy = channel('ntfy', { url: `${receiver.origin}/vigil-alerts`, token: 'tk_abc123' });
    expect((await senders.send(ntfy, sampleAlert())).ok).toBe(true);
    const request = lastRequest();
    expect(request.path).toBe('/vigil-alerts');
    expect(request.headers).toMatchObject({
      title: 'Payments API is down',
      priority: 'high',
      tags: 'rotating_light',
      click: 'https://vigil.example.com/entities/service/payments-api',
      authorization: 'Bearer tk_abc123',
    });
    const body = request.body.toString('utf8');
    expect(body).toContain('Check: Payments health');
    expect(body).toContain('State: up → down');
    expect(body).toContain('Last error: the endpoint answered 503');
  });

  it('marks a recovery with the default priority and a check mark, without a token header', async () => {
    const ntfy = channel('ntfy', { url: `${receiver.origin}/vigil-alerts` });
    await senders.send(ntfy, sampleAlert({}, { from_state: 'down', to_state: 'up' }));
    const request = lastRequest();
    expect(request.headers).toMatchObject({ priority: 'default', tags: 'white_check_mark' });
    expect(request.headers.authorization).toBeUndefined();
  });

  it('says ntfy’s own words when a protected topic refuses the message (the provider’s error words, as a person’s ntfy method says them)', async () => {
    const topic = await startNtfyReceiver('vigil-protected', { token: 'tk_right_one' });
    try {
      const refused = await senders.send(
        channel('ntfy', { url: topic.url, token: 'tk_wrong_one' }),
        sampleAlert(),
      );
      expect(refused).toEqual({ ok: false, status_code: 403, error: 'ntfy answered 403: forbidden' });
      const sent = await senders.send(
        channel('ntfy', { url: topic.url, token: 'tk_right_one' }),
        sampleAlert(),
      );
      expect(sent).toEqual({ ok: true, status_code: 200, error: null });
      expect(topic.bodies).toHaveLength(1);
    } finally {
      await topic.close();
    }
  });

  it('encodes a non-ASCII title as an RFC 2047 word', async () => {
    const ntfy = channel('ntfy', { url: `${receiver.origin}/vigil-alerts` });
    const alert = sampleAlert({ entity: { ...sampleAlert().entity, name: 'Zahlungsdienst Köln' } });
    await senders.send(ntfy, alert);
    const title = String(lastRequest().headers.title);
    expect(title).toMatch(/^=\?UTF-8\?B\?[A-Za-z0-9+/=]+\?=$/);
    const decoded = Buffer.from(title.slice('=?UTF-8?B?'.length, -2), 'base64').toString('utf8');
    expect(decoded).toBe('Zahlungsdienst Köln is down');
  });
});

describe('every channel says what the message is (issue 35: indistinguishable messages)', () => {
  const first = sampleAlert({ deliveryId: 'dlv_01JFIRST' });
  const repeat = sampleAlert({
    kind: 'repeat',
    deliveryId: 'dlv_01JREPEAT',
    downForSeconds: 1500,
    reason: 'Payments health: the endpoint answered 503; Ledger: connect ECONNREFUSED',
  });
  const escalation = sampleAlert({
    kind: 'escalation',
    deliveryId: 'dlv_01JESCALATION',
    unacknowledgedMinutes: 5,
    unacknowledgedSeconds: 300,
    reason: 'the endpoint answered 504',
  });

  it('gives repeat and escalation webhook bodies their kind and duration: they differ from the first alert', async () => {
    const webhook = channel('webhook', { url: `${receiver.origin}/webhook`, secret: SECRET });
    const bodies = [];
    for (const alert of [first, repeat, escalation]) {
      expect((await senders.send(webhook, alert)).ok).toBe(true);
      const request = lastRequest();
      expect(request.headers['x-service-delivery']).toBe(alert.deliveryId);
      bodies.push(JSON.parse(request.body.toString('utf8')));
    }
    const [a, r, e] = bodies;
    // An alert built without a reason says so: null, never absent.
    expect(a).toEqual({ ...sampleEvent(), check_name: 'Payments health', kind: 'alert', reason: null });
    expect(r).toEqual({
      ...sampleEvent(),
      check_name: 'Payments health',
      kind: 'repeat',
      reason: 'Payments health: the endpoint answered 503; Ledger: connect ECONNREFUSED',
      down_for_seconds: 1500,
    });
    expect(e).toEqual({
      ...sampleEvent(),
      check_name: 'Payments health',
      kind: 'escalation',
      reason: 'the endpoint answered 504',
      unacknowledged_seconds: 300,
    });
    const recovery = sampleAlert({ lastError: null }, { from_state: 'down', to_state: 'up' });
    await senders.send(webhook, recovery);
    expect(JSON.parse(lastRequest().body.toString('utf8')).kind).toBe('recovery');
  });

  it('puts the kind word and the duration in the text of slack, discord and ntfy', async () => {
    const targets = [
      channel('slack', { url: `${receiver.origin}/services/T000/B000/XXXX` }),
      channel('discord', { url: `${receiver.origin}/api/webhooks/1/x` }),
      channel('ntfy', { url: `${receiver.origin}/alerts` }),
    ];
    for (const target of targets) {
      const texts: string[] = [];
      for (const alert of [first, repeat, escalation]) {
        expect((await senders.send(target, alert)).ok).toBe(true);
        const request = lastRequest();
        texts.push(`${String(request.headers.title ?? '')}\n${request.body.toString('utf8')}`);
      }
      const [a, r, e] = texts;
      expect(a, target.channel_type).toMatch(/Kind:\**\s*alert\b/);
      expect(r, target.channel_type).toMatch(/Kind:\**\s*repeat\b/);
      expect(r, target.channel_type).toContain('still down for 25 min');
      expect(e, target.channel_type).toMatch(/Kind:\**\s*escalation\b/);
      expect(e, target.channel_type).toContain('unacknowledged for 5 minutes');
    }
  });
});
