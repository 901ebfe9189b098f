import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSmtpTransport } from '../../../lib/notify/channels/email-smtp.ts';
import { createChannelSenders } from '../../../lib/notify/channels/index.ts';
import { clip } from '../../../lib/notify/channels/message.ts';
import type { ChannelSenders, Digest } from '../../../lib/notify/items/ports.ts';
import { createFakeClock } from '../../../lib/platform/clock.ts';
import { silentLogger } from '../../../lib/platform/logger.ts';
import { startNatsServer, type TestNatsServer } from '../../support/nats-server.ts';
import { decodeWords, startSmtpServer, type TestSmtpServer } from '../../support/smtp-server.ts';
import { createTlsFixtures } from '../../support/tls-fixtures.ts';
import { channel, sampleEvent } from './alert-fixture.ts';
import { type Receiver, startReceiver } from './receiver.ts';

/**
 * A digest of 1,000 events (the most one part holds) on every channel type, sent to the real local
 * receivers (HTTPS on 127.0.0.1, an SMTP server, nats-server): each stays within its type's
 * documented limits (Slack blocks and section text, Discord embed sizes, ntfy's message bytes, the
 * NATS server's max_payload) and the machine payloads carry every event.
 */

const SECRET = 'whsec-digest-91c';
const EVENTS = 1000;

function bigDigest(): Digest {
  // Long, partly non-ASCII names: the limits are in characters (Slack, Discord) and bytes (ntfy, NATS).
  const events = Array.from({ length: EVENTS }, (_, i) => ({
    event: sampleEvent({
      entity_id: `ent_${String(i).padStart(4, '0')}`,
      entity_name: `Web node ${i + 1} — Zürich rack ${'ü'.repeat(i % 7)} <b>&`,
      transition_id: `trn_${i}`,
    }),
    kind: 'alert' as const,
    // A reason as long as one gets (alert-reason.ts MAX_REASON), partly non-ASCII too.
    reason: clip(`expected status 200, got 503 from rack ${i + 1}: ${'Zürich “slow” '.repeat(40)}`, 300),
  }));
  return {
    deliveryId: 'dlv_01JDIGEST',
    group: { by: 'blueprint', key: 'host', name: 'host' },
    counts: { down: EVENTS, degraded: 0, up: 0 },
    events,
    part: 1,
    parts: 1,
  };
}

let receiver: Receiver;
let smtp: TestSmtpServer;
let nats: TestNatsServer;
let smallNats: TestNatsServer;
let subscriber: NatsConnection;
let senders: ChannelSenders;

function sendersFor(natsUrl: string): ChannelSenders {
  return createChannelSenders({
    egressAllow: ['127.0.0.0/8'],
    natsUrls: [natsUrl],
    natsPrefix: 'vigil',
    logger: silentLogger,
    ca: [tls.caCert],
    clock: createFakeClock(),
    email: createSmtpTransport({ url: smtp.url, egressAllow: ['127.0.0.0/8'], timeoutMs: 5_000 }),
    emailFrom: { address: 'alerts@example.com', name: 'Vigil' },
  });
}

const tls = createTlsFixtures();
beforeAll(async () => {
  receiver = await startReceiver(tls.valid, SECRET);
  smtp = await startSmtpServer();
  nats = await startNatsServer();
  smallNats = await startNatsServer({ maxPayload: 65_536 });
  subscriber = await connect({ servers: [`127.0.0.1:${smallNats.port}`] });
  senders = sendersFor(nats.url);
}, 30_000);

afterAll(async () => {
  await senders?.close();
  await subscriber?.close();
  await Promise.all([receiver?.close(), smtp?.close(), nats?.close(), smallNats?.close()]);
});

const lastBody = () => {
  const request = receiver.received.at(-1);
  if (!request) throw new Error('the receiver got nothing');
  return request;
};

describe('a 1,000-event digest on every channel type', () => {
  it('webhook: the machine payload with every event (SPEC fields + kind), signed, with the delivery id', async () => {
    const outcome = await senders.sendDigest?.(
      channel('webhook', { url: `${receiver.origin}/webhook`, secret: SECRET }),
      bigDigest(),
    );
    expect(outcome).toEqual({ ok: true, status_code: 204, error: null });
    const request = lastBody();
    expect(request.signatureValid).toBe(true);
    expect(request.headers['x-service-delivery']).toBe('dlv_01JDIGEST');
    const body = JSON.parse(request.body.toString('utf8'));
    expect(body).toMatchObject({
      kind: 'digest',
      group: { by: 'blueprint', key: 'host', name: 'host' },
      counts: { down: 1000, degraded: 0, up: 0 },
      part: 1,
      parts: 1,
    });
    expect(body.events).toHaveLength(EVENTS);
    expect(Object.keys(body.events[0]).sort()).toEqual(
      [...Object.keys(sampleEvent()), 'kind', 'reason'].sort(),
    );
    expect(body.events[999].reason).toMatch(/^expected status 200, got 503 from rack 1000: Zürich/);
  });

  it('slack: at most 50 blocks, each section at most 3,000 characters, saying how many it left out', async () => {
    const outcome = await senders.sendDigest?.(
      channel('slack', { url: `${receiver.origin}/slack` }),
      bigDigest(),
    );
    expect(outcome?.ok).toBe(true);
    const body = JSON.parse(lastBody().body.toString('utf8'));
    expect(body.blocks.length).toBeLessThanOrEqual(50);
    expect(body.blocks[0].text.text.length).toBeLessThanOrEqual(150);
    for (const block of body.blocks.slice(1)) expect(block.text.text.length).toBeLessThanOrEqual(3000);
    expect(body.text.length).toBeLessThanOrEqual(3000);
    expect(body.blocks[1].text.text).toMatch(/^host: 1000 entities down: Web node 1 .*, … and 988 more$/);
    // Every event is either a line of a section or counted in the closing "… and N more".
    const lines = body.blocks.slice(2).flatMap((b: { text: { text: string } }) => b.text.text.split('\n'));
    const more = /^… and (\d+) more in this digest$/.exec(lines.at(-1) ?? '');
    const shown = lines.filter((l: string) => l.startsWith('Web node ')).length;
    expect(shown + Number(more?.[1] ?? 0)).toBe(EVENTS);
    // Slack's control characters are escaped in every line.
    expect(JSON.stringify(body.blocks)).not.toContain('<b>');
  });

  it('discord: one embed, description at most 4,096, the embed at most 6,000, content at most 2,000', async () => {
    const outcome = await senders.sendDigest?.(
      channel('discord', { url: `${receiver.origin}/discord` }),
      bigDigest(),
    );
    expect(outcome?.ok).toBe(true);
    const body = JSON.parse(lastBody().body.toString('utf8'));
    expect(body.embeds.length).toBeLessThanOrEqual(10);
    const [embed] = body.embeds;
    expect(embed.description.length).toBeLessThanOrEqual(4096);
    expect(embed.title.length + embed.description.length).toBeLessThanOrEqual(6000);
    expect(body.content.length).toBeLessThanOrEqual(2000);
    expect(embed.description).toContain('host: 1000 entities down: Web node 1');
    expect(body.allowed_mentions).toEqual({ parse: [] });
  });

  it('ntfy: the title in a header, a message of at most 4,096 bytes', async () => {
    const outcome = await senders.sendDigest?.(
      channel('ntfy', { url: `${receiver.origin}/ntfy` }),
      bigDigest(),
    );
    expect(outcome?.ok).toBe(true);
    const request = lastBody();
    expect(request.headers.title).toBe('Digest: host: 1000 down');
    expect(request.body.length).toBeLessThanOrEqual(4096);
    expect(request.body.toString('utf8')).toMatch(/^host: 1000 entities down: Web node 1 /);
  });

  it('email: one message whose text and HTML name every event, escaped', async () => {
    const outcome = await senders.sendDigest?.(channel('email', { to: ['ops@example.com'] }), bigDigest());
    expect(outcome?.ok).toBe(true);
    const mail = smtp.received.at(-1);
    expect(decodeWords(mail?.message.headers.get('subject')?.toString() ?? '')).toBe(
      '[Vigil] Digest: host: 1000 down',
    );
    expect(mail?.message.headers.get('x-vigil-delivery')).toBe('dlv_01JDIGEST');
    const text = String(mail?.message.text);
    const html = String(mail?.message.html);
    expect(text).toContain('Web node 1000 —');
    expect(text.split('\n').filter((l) => l.startsWith('Web node '))).toHaveLength(EVENTS);
    expect(html.match(/<li>/g)).toHaveLength(EVENTS);
    expect(html).not.toContain('<b>');
  });

  it('nats: one message under the default max_payload; several of at most max_payload on a smaller server', async () => {
    const published = await new Promise<string>((resolve, reject) => {
      void (async () => {
        const nc = await connect({ servers: [`127.0.0.1:${nats.port}`] });
        const sub = nc.subscribe('vigil.tnt_01JTEST.alerts', { max: 1 });
        await nc.flush();
        const outcome = await senders.sendDigest?.(channel('nats', { subject: 'alerts' }), bigDigest());
        if (!outcome?.ok) reject(new Error(outcome?.error ?? 'not sent'));
        for await (const msg of sub) resolve(msg.string());
        await nc.close();
      })();
    });
    expect(JSON.parse(published).events).toHaveLength(EVENTS);

    const small = sendersFor(smallNats.url);
    const sizes: number[] = [];
    const events: unknown[] = [];
    const sub = subscriber.subscribe('vigil.tnt_01JTEST.alerts');
    await subscriber.flush();
    const outcome = await small.sendDigest?.(channel('nats', { subject: 'alerts' }), bigDigest());
    expect(outcome).toEqual({ ok: true, status_code: null, error: null });
    for await (const msg of sub) {
      sizes.push(msg.data.length);
      const body = JSON.parse(msg.string());
      events.push(...body.events);
      if (body.chunk === body.chunks) break;
    }
    await small.close();
    expect(sizes.length).toBeGreaterThan(1);
    for (const size of sizes) expect(size).toBeLessThanOrEqual(65_536);
    expect(events).toHaveLength(EVENTS);
  });
});
