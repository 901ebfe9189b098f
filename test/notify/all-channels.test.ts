import { connect, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../local/scheduler-helpers.ts';
import { runtimes } from '../support/api-harness.ts';
import { startNatsServer, type TestNatsServer } from '../support/nats-server.ts';
import { createTlsFixtures } from '../support/tls-fixtures.ts';
import { type Receiver, startReceiver } from './channels/receiver.ts';
import { useNotifyRuntime } from './support/notify-runtime.ts';

/**
 * A pushed failure moves an entity down, and every channel type gets its alert through the whole
 * path of each runtime (local: change pump, SQLite queue, job runner; Lambda: stream handler,
 * notify queue, notifier handler): HTTPS receivers standing in for Slack, Discord, ntfy and a
 * webhook, and a NATS subscriber on a real nats-server. Recovery arrives too.
 */

const SECRET = 'whsec-all-channels';

let receiver: Receiver;
let nats: TestNatsServer;
let subscriber: NatsConnection;
let tlsCa: string;

beforeAll(async () => {
  const tls = createTlsFixtures();
  tlsCa = tls.caCert;
  receiver = await startReceiver(tls.valid, SECRET);
  nats = await startNatsServer();
  subscriber = await connect({ servers: nats.url });
});

afterAll(async () => {
  await subscriber?.close();
  await nats?.close();
  await receiver?.close();
});

/** Collects what arrives on a subject. */
function collect(sub: Subscription): unknown[] {
  const seen: unknown[] = [];
  void (async () => {
    for await (const message of sub) seen.push(message.json());
  })();
  return seen;
}

describe.each(runtimes)('every channel type on the $runtime runtime', ({ start }) => {
  const { api, call, settle } = useNotifyRuntime(start, () => ({
    env: { VIGIL_EGRESS_ALLOW: '127.0.0.0/8', VIGIL_NATS_URL: nats.url },
    egress: { ca: [tlsCa] },
  }));

  it('gets the alert and the recovery to slack, discord, ntfy, webhook and nats', async () => {
    const tag = `${api().runtime}-${Date.now()}`;
    const bp = await call('POST', '/v1/blueprints', { slug: `svc-${tag}`, name: 'Service' });
    const entity = await call('POST', `/v1/blueprints/${bp.slug}/entities`, {
      slug: 'checkout',
      name: 'Checkout',
    });
    const check = await call('POST', '/v1/checks', {
      entity_id: entity.id,
      check_type: 'push',
      name: 'Checkout heartbeat',
      interval_seconds: 60,
      failure_threshold: 1,
    });
    await call('POST', `/v1/checks/${check.id}/policy`, { cooldown_seconds: 0 });
    const channels = [
      { channel_type: 'slack', config: { url: `${receiver.origin}/slack/${tag}` } },
      { channel_type: 'discord', config: { url: `${receiver.origin}/discord/${tag}` } },
      { channel_type: 'ntfy', config: { url: `${receiver.origin}/ntfy/${tag}`, token: 'tk_secret' } },
      { channel_type: 'webhook', config: { url: `${receiver.origin}/webhook`, secret: SECRET } },
      { channel_type: 'nats', config: { subject: 'alerts' } },
    ];
    const made = [];
    for (const channel of channels)
      made.push(await call('POST', `/v1/checks/${check.id}/policy/channels`, channel));
    // A nats consumer subscribes to the subject the channel record shows: under the tenant's root.
    const natsSubject = made.at(-1)?.config.published_subject;
    expect(natsSubject).toBe(`vigil.${api().tenantId}.alerts`);
    const published = collect(subscriber.subscribe(natsSubject));
    await subscriber.flush();

    // The first result (unknown -> up) alerts no one; the failure after it does.
    await call('POST', `/v1/checks/${check.id}/results`, { success: true, latency_ms: 5 });
    await settle();
    await call('POST', `/v1/checks/${check.id}/results`, {
      success: false,
      latency_ms: 5,
      error_message: 'upstream timed out',
    });
    await settle();

    const at = (prefix: string) => receiver.received.filter((r) => r.path === `/${prefix}/${tag}`);
    const hooks = () =>
      receiver.received.filter(
        (r) => r.path === '/webhook' && JSON.parse(r.body.toString('utf8')).check_id === check.id,
      );
    await eventually(
      () => (at('slack').length && at('discord').length && at('ntfy').length ? true : undefined),
      'http channels',
    );
    await eventually(() => (hooks().length && published.length ? true : undefined), 'webhook and nats');

    const slack = JSON.parse(at('slack')[0]?.body.toString('utf8') ?? '{}');
    expect(slack.text).toContain('Checkout');
    expect(Array.isArray(slack.blocks)).toBe(true);
    const discord = JSON.parse(at('discord')[0]?.body.toString('utf8') ?? '{}');
    expect(discord.content).toContain('Checkout');
    expect(discord.embeds).toHaveLength(1);
    const ntfy = at('ntfy')[0];
    expect(ntfy?.headers.title).toContain('Checkout');
    expect(ntfy?.headers.authorization).toBe('Bearer tk_secret');
    expect(ntfy?.body.toString('utf8')).toContain('upstream timed out');
    expect(ntfy?.body.toString('utf8')).toContain('Check: Checkout heartbeat');
    expect(slack.text).toContain('Check: Checkout heartbeat');
    const hook = hooks()[0];
    expect(hook?.signatureValid).toBe(true);
    const event = JSON.parse(hook?.body.toString('utf8') ?? '{}');
    expect(Object.keys(event).sort()).toEqual(
      [
        'check_id',
        'check_name',
        'entity_id',
        'entity_name',
        'from_state',
        'kind',
        'reason',
        'tenant_id',
        'timestamp',
        'to_state',
        'transition_id',
      ].sort(),
    );
    expect(event).toMatchObject({
      entity_id: entity.id,
      check_id: check.id,
      check_name: 'Checkout heartbeat',
      from_state: 'up',
      to_state: 'down',
      kind: 'alert',
    });
    expect(published[0]).toEqual(event);

    await call('POST', `/v1/checks/${check.id}/results`, { success: true, latency_ms: 5 });
    await settle();
    await eventually(() => (hooks().length >= 2 && published.length >= 2 ? true : undefined), 'recovery');
    expect(published[1]).toMatchObject({ from_state: 'down', to_state: 'up', kind: 'recovery' });
    await eventually(
      () => (at('slack').length >= 2 && at('ntfy').length >= 2 ? true : undefined),
      'recovery on chat',
    );

    const logs = await call('GET', `/v1/notify/logs?check_id=${check.id}&limit=50`);
    const statuses = logs.logs.map(
      (l: { channel_type: string; status: string }) => `${l.channel_type}:${l.status}`,
    );
    expect(statuses.filter((s: string) => s.endsWith(':sent'))).toHaveLength(10);
  });
});
