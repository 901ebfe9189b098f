import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChannelSenders } from '../../../lib/notify/channels/index.ts';
import { createNatsPublisher, NO_NATS_SERVER, natsServerOptions } from '../../../lib/notify/channels/nats.ts';
import { createFakeClock } from '../../../lib/platform/clock.ts';
import { silentLogger } from '../../../lib/platform/logger.ts';
import { closedPort } from '../../probes/support/http-server.ts';
import { startNatsServer, type TestNatsServer } from '../../support/nats-server.ts';
import { channel, sampleAlert, sampleEvent } from './alert-fixture.ts';

let server: TestNatsServer;
let subscriber: NatsConnection;

beforeAll(async () => {
  server = await startNatsServer();
  subscriber = await connect({ servers: [`127.0.0.1:${server.port}`] });
});

afterAll(async () => {
  await subscriber.close();
  await server.close();
});

function sendersFor(natsUrls: string[], natsPrefix = 'vigil') {
  return createChannelSenders({
    egressAllow: [],
    natsUrls,
    natsPrefix,
    logger: silentLogger,
    clock: createFakeClock(),
  });
}

/** The next message on `subject`, as text. */
function nextMessage(nc: NatsConnection, subject: string): Promise<string> {
  const sub = nc.subscribe(subject, { max: 1 });
  return (async () => {
    for await (const msg of sub) return msg.string();
    throw new Error(`no message on ${subject}`);
  })();
}

describe('nats channel', () => {
  it('publishes the state-change event JSON with the check name under the tenant’s root: vigil.<tenant id>.<subject>', async () => {
    const senders = sendersFor([server.url]);
    const received = nextMessage(subscriber, 'vigil.tnt_01JTEST.alerts.payments');
    await subscriber.flush();
    const outcome = await senders.send(
      channel('nats', { subject: 'alerts.payments' }),
      sampleAlert({ reason: 'down from 2 of 3 locations: eu-west 503, us-east timeout; ap-south ok' }),
    );
    expect(outcome).toEqual({ ok: true, status_code: null, error: null });
    expect(JSON.parse(await received)).toEqual({
      ...sampleEvent(),
      check_name: 'Payments health',
      kind: 'alert',
      reason: 'down from 2 of 3 locations: eu-west 503, us-east timeout; ap-south ok',
    });
    await senders.close();
  });

  it('puts the configured prefix (VIGIL_NATS_PREFIX) before the tenant id', async () => {
    const senders = sendersFor([server.url], 'acme.vigil');
    const received = nextMessage(subscriber, 'acme.vigil.tnt_01JTEST.alerts');
    await subscriber.flush();
    expect((await senders.send(channel('nats', { subject: 'alerts' }), sampleAlert())).ok).toBe(true);
    expect(JSON.parse(await received)).toEqual({
      ...sampleEvent(),
      check_name: 'Payments health',
      kind: 'alert',
      reason: null,
    });
    await senders.close();
  });

  it.each([
    ['$JS.API.STREAM.PURGE.ORDERS', 'Do not start with $'],
    ['$SYS.REQ.SERVER.PING', 'Do not start with $'],
    ['_INBOX.abc', 'Do not start with _INBOX'],
  ])('never publishes a stored subject %s from before such subjects were refused', async (subject, rule) => {
    // A callback runs as the client reads each message: after a flush, nothing routed is missing.
    const seen: string[] = [];
    const everything = subscriber.subscribe('>', {
      callback: (err, message) => {
        if (!err) seen.push(message.subject);
      },
    });
    await subscriber.flush();
    const senders = sendersFor([server.url]);
    const outcome = await senders.send(channel('nats', { subject }), sampleAlert());
    expect(outcome).toMatchObject({ ok: false, status_code: null });
    expect(outcome.error).toBe(
      `the subject ${subject} is not published. ${rule}: ${
        rule.endsWith('$')
          ? 'such subjects are the NATS server’s own APIs, such as $JS.API.'
          : 'such subjects are other clients’ reply subjects.'
      } Replace the channel with one on another subject.`,
    );
    // A publish would have reached the server before the sender answered; this round trip brings it here.
    await subscriber.flush();
    everything.unsubscribe();
    expect(seen.filter((s) => s === subject || s.endsWith(`.${subject}`))).toEqual([]);
    await senders.close();
  });

  it('reuses one connection for every publish', async () => {
    const publisher = createNatsPublisher({ natsUrls: [server.url], logger: silentLogger });
    const before = await nextClientId(server.port);
    for (let i = 0; i < 5; i++) {
      expect((await publisher.publish('vigil.reuse', Buffer.from(`{"n":${i}}`))).ok).toBe(true);
    }
    // One id for the publisher's connection, one for this second probe.
    expect(await nextClientId(server.port)).toBe(before + 2);
    await publisher.close();
  });

  it('fails every delivery with a clear error when no server is configured', async () => {
    const senders = sendersFor([]);
    const outcome = await senders.send(channel('nats', { subject: 'vigil.alerts' }), sampleAlert());
    expect(outcome).toEqual({ ok: false, status_code: null, error: NO_NATS_SERVER });
    expect(NO_NATS_SERVER).toBe('no NATS server configured (VIGIL_NATS_URL)');
  });

  it('fails fast with the reason when the server is down', async () => {
    const port = await closedPort();
    // A 60 s timeout, so a refusal told at once and one told only when the timeout expires stay
    // apart by far more than a busy machine's slowness: the bound below is half of it.
    const publisher = createNatsPublisher({
      natsUrls: [`nats://127.0.0.1:${port}`],
      logger: silentLogger,
      timeoutMs: 60_000,
    });
    const started = Date.now();
    const outcome = await publisher.publish('vigil.alerts', Buffer.from('{}'));
    expect(outcome).toEqual({
      ok: false,
      status_code: null,
      error: 'could not publish to the NATS server: connection refused',
    });
    expect(Date.now() - started).toBeLessThan(30_000);
    await publisher.close();
  });

  it('fails within its timeout when the server stops after the connection opened', async () => {
    const doomed = await startNatsServer();
    const publisher = createNatsPublisher({ natsUrls: [doomed.url], logger: silentLogger, timeoutMs: 1000 });
    expect((await publisher.publish('vigil.alerts', Buffer.from('{}'))).ok).toBe(true);
    await doomed.close();
    const started = Date.now();
    const outcome = await publisher.publish('vigil.alerts', Buffer.from('{}'));
    // Whether the client has noticed the closed socket before this publish is a race: unnoticed,
    // the acknowledgement times out; noticed, the publish fails at once. Both are clear failures.
    expect(outcome).toMatchObject({ ok: false, status_code: null });
    expect(outcome.error).toMatch(
      /^(the NATS server did not acknowledge within 1 s|could not publish to the NATS server: connection disconnected)$/,
    );
    // Within the 1 s timeout, give or take a busy machine's scheduling: never the client's own
    // reconnect loop, which has no end (maxReconnectAttempts: -1).
    expect(Date.now() - started).toBeLessThan(1000 + 10_000);
    await publisher.close();
  });

  it('authenticates with the user and password in the URL', async () => {
    const guarded = await startNatsServer({ auth: { user: 'vigil', pass: 's3cr3t/pw' } });
    try {
      expect(guarded.url).toBe(`nats://vigil:s3cr3t%2Fpw@127.0.0.1:${guarded.port}`);
      const listener = await connect({
        servers: [`127.0.0.1:${guarded.port}`],
        user: 'vigil',
        pass: 's3cr3t/pw',
      });
      const received = nextMessage(listener, 'vigil.auth');
      await listener.flush();
      const publisher = createNatsPublisher({ natsUrls: [guarded.url], logger: silentLogger });
      expect(await publisher.publish('vigil.auth', Buffer.from('{"ok":true}'))).toMatchObject({ ok: true });
      expect(await received).toBe('{"ok":true}');
      await publisher.close();
      await listener.close();

      const wrong = createNatsPublisher({
        natsUrls: [`nats://vigil:wrong@127.0.0.1:${guarded.port}`],
        logger: silentLogger,
        timeoutMs: 3000,
      });
      const denied = await wrong.publish('vigil.auth', Buffer.from('{}'));
      expect(denied).toMatchObject({
        ok: false,
        error: 'could not publish to the NATS server: Authorization Violation',
      });
      await wrong.close();
    } finally {
      await guarded.close();
    }
  });
});

describe('natsServerOptions', () => {
  it('takes credentials out of the URLs: user and password, or a token', () => {
    expect(natsServerOptions(['nats://a:b%40c@n1:4222', 'nats://n2:4223'])).toEqual({
      servers: ['n1:4222', 'n2:4223'],
      user: 'a',
      pass: 'b@c',
    });
    expect(natsServerOptions(['nats://tok123@n1:4222'])).toEqual({ servers: ['n1:4222'], token: 'tok123' });
    expect(natsServerOptions(['nats://n1'])).toEqual({ servers: ['n1'] });
  });
});

/** The id the server gives a new client: ids count up, so the difference counts connections made. */
async function nextClientId(port: number): Promise<number> {
  const probe = await connect({ servers: [`127.0.0.1:${port}`] });
  const id = probe.info?.client_id;
  await probe.close();
  if (id === undefined) throw new Error('the server sent no client id');
  return id;
}
