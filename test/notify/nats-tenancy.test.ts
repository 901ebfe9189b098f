import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../lib/platform/ids.ts';
import { newCheck, newEntity, quietTcpCheck } from '../checks/check-fixtures.ts';
import { eventually } from '../local/scheduler-helpers.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { startNatsServer, type TestNatsServer } from '../support/nats-server.ts';

/**
 * Tenants share the operator's NATS connection, so each tenant publishes only under its own root,
 * `vigil.<tenant id>.<subject>`, and never to the server's own APIs (`$JS.API…`) or other clients'
 * reply subjects (`_INBOX…`): checked against a real nats-server with JetStream, in both runtimes.
 */

let nats: TestNatsServer;
/** The operator's own client: subscribers and the JetStream stream under attack. */
let operator: NatsConnection;

beforeAll(async () => {
  nats = await startNatsServer({ jetstream: true });
  operator = await connect({ servers: nats.url });
});

afterAll(async () => {
  await operator?.close();
  await nats?.close();
});

interface Received {
  subject: string;
  event: { tenant_id: string; check_id: string };
}

/**
 * Subscribes, collecting what arrives. A callback runs as the client reads each message, so after
 * a flush round trip everything the server routed before it is here (an iterator may lag behind).
 */
function collect(subject: string): Received[] {
  const seen: Received[] = [];
  operator.subscribe(subject, {
    callback: (err, message) => {
      if (!err) seen.push({ subject: message.subject, event: message.json() });
    },
  });
  return seen;
}

/** A JetStream API request as the operator; fails on an API error. */
async function jetstream(api: string, body: unknown = {}): Promise<Record<string, unknown>> {
  const reply = await operator.request(`$JS.API.${api}`, JSON.stringify(body), { timeout: 5000 });
  const answer = reply.json<Record<string, unknown>>();
  if (answer.error) throw new Error(`${api}: ${JSON.stringify(answer.error)}`);
  return answer;
}

async function storedMessages(stream: string): Promise<number> {
  const info = await jetstream(`STREAM.INFO.${stream}`);
  return (info.state as { messages: number }).messages;
}

describe.each(runtimes)('nats subjects per tenant ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  const call = (method: string, path: string, key: string, body?: unknown) =>
    api.request(method, path, { key, body });
  const natsChannel = (checkId: string, subject: string, key = api.adminKey) =>
    call('POST', `/v1/checks/${checkId}/policy/channels`, key, { channel_type: 'nats', config: { subject } });

  beforeAll(async () => {
    api = await start({ env: { VIGIL_NATS_URL: nats.url } });
  });
  afterAll(async () => {
    await api?.close();
  });

  it("publishes each tenant's events under its own root: tenant B's subscriber never gets tenant A's", async () => {
    const a = { tenantId: api.tenantId, key: api.adminKey };
    const b = await api.createTenant('Tenant B');
    const checks: Record<string, string> = {};
    for (const tenant of [a, b]) {
      const entityId = await newEntity(api, { key: tenant.key });
      const checkId = await newCheck(api, quietTcpCheck(entityId), tenant.key);
      const made = await natsChannel(checkId, 'alerts', tenant.key);
      expect(made.status, made.text).toBe(201);
      expect(made.body.config).toEqual({
        subject: 'alerts',
        published_subject: `vigil.${tenant.tenantId}.alerts`,
      });
      checks[tenant.tenantId] = checkId;
    }
    const onA = collect(`vigil.${a.tenantId}.>`);
    const onB = collect(`vigil.${b.tenantId}.>`);
    await operator.flush();

    for (const tenant of [a, b]) {
      const sent = await call('POST', `/v1/checks/${checks[tenant.tenantId]}/policy/test`, tenant.key);
      expect(sent.status, sent.text).toBe(200);
      expect(sent.body.map((d: { status: string }) => d.status)).toEqual(['sent']);
    }
    await eventually(() => (onA.length && onB.length ? true : undefined), 'both tenants’ events', 5000);
    // Both publishes were acknowledged before this round trip, so anything routed here has arrived.
    await operator.flush();

    expect(onB).toEqual([
      { subject: `vigil.${b.tenantId}.alerts`, event: expect.objectContaining({ tenant_id: b.tenantId }) },
    ]);
    expect(onA).toEqual([
      { subject: `vigil.${a.tenantId}.alerts`, event: expect.objectContaining({ tenant_id: a.tenantId }) },
    ]);
  });

  // Wildcards (alerts.*, alerts.>, >) were refused before; channels-api.test.ts keeps them refused.
  it.each([
    ['$JS.API.STREAM.PURGE.ORDERS', /^Do not start with \$/],
    ['$SYS.REQ.SERVER.PING', /^Do not start with \$/],
    ['_INBOX.x', /^Do not start with _INBOX/],
    ['_INBOX', /^Do not start with _INBOX/],
  ])('refuses the subject %s at create with 400 VALIDATION_ERROR', async (subject, message) => {
    const checkId = await newCheck(api, quietTcpCheck(await newEntity(api)));
    const res = await natsChannel(checkId, subject);
    expect(res.status, res.text).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.details).toEqual([{ path: 'config.subject', message: expect.stringMatching(message) }]);
    expect(await api.app.channels.listForCheck(checkId)).toEqual([]);
  });

  it('never reaches the JetStream API: refused at create, and a stored older channel fails its delivery', async () => {
    const stream = `ORDERS_${api.runtime.toUpperCase()}`;
    await jetstream(`STREAM.CREATE.${stream}`, {
      name: stream,
      subjects: [`orders.${api.runtime}.>`],
      storage: 'memory',
    });
    for (let i = 0; i < 3; i++) {
      const ack = await operator.request(`orders.${api.runtime}.new`, `{"n":${i}}`, { timeout: 5000 });
      expect(ack.json<{ stream: string }>().stream).toBe(stream);
    }
    expect(await storedMessages(stream)).toBe(3);

    const checkId = await newCheck(api, quietTcpCheck(await newEntity(api)));
    const purge = `$JS.API.STREAM.PURGE.${stream}`;
    const refused = await natsChannel(checkId, purge);
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body.details[0].path).toBe('config.subject');

    // Channels stored before subjects were scoped: written straight to the store, as they were.
    const inbox = collect('_INBOX.legacy');
    await operator.flush();
    for (const subject of [purge, '_INBOX.legacy']) {
      const refusal = await api.app.channels.create({
        id: newId('chn', Date.now()),
        tenant_id: api.tenantId,
        check_id: checkId,
        created_at: new Date().toISOString(),
        channel_type: 'nats',
        config: { subject },
      });
      expect(refusal).toBeUndefined();
    }
    const sent = await call('POST', `/v1/checks/${checkId}/policy/test`, api.adminKey);
    expect(sent.status, sent.text).toBe(200);
    expect(sent.body).toHaveLength(2);
    for (const delivery of sent.body) {
      expect(delivery).toMatchObject({ status: 'failed', attempts: 1 });
      expect(delivery.error).toMatch(
        /^the subject (\$JS\.API\.STREAM\.PURGE\.ORDERS_\w+|_INBOX\.legacy) is not published\. Do not start with (\$|_INBOX)/,
      );
    }
    await operator.flush();
    expect(inbox).toEqual([]);
    expect(await storedMessages(stream)).toBe(3);

    const policy = await call('GET', `/v1/checks/${checkId}/policy`, api.adminKey);
    expect(policy.body.channels.map((c: { config: unknown }) => c.config)).toEqual(
      expect.arrayContaining([
        { subject: purge, published_subject: null },
        { subject: '_INBOX.legacy', published_subject: null },
      ]),
    );
  });
});
