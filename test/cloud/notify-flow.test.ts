import { EventBridgeClient, PutEventsCommand, type PutEventsCommandInput } from '@aws-sdk/client-eventbridge';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createCloudApp } from '../../lib/cloud/http-composition.ts';
import { createNotifyJobQueue } from '../../lib/cloud/queues/notify-queue.ts';
import { stateChangeEventSchema } from '../../lib/domain/states/state-change-event.ts';
import { eventJobId } from '../../lib/notify/items/job-ids.ts';
import { loadConfig } from '../../lib/platform/config.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import { type Received, type Receiver, startReceiver } from '../notify/channels/receiver.ts';
import { type LambdaHarness, startLambdaHarness } from '../support/api-harness.ts';
import { alertToWebhook, entityWithPushCheck } from '../support/push-fixtures.ts';
import { createTlsFixtures } from '../support/tls-fixtures.ts';
import { lambdaContext, sqsEvent } from './support.ts';

/**
 * The whole notification path of the cloud runtime through its Lambda handlers, over DynamoDB
 * Local: a pushed result (api handler) moves an entity -> the stream handler enqueues the event job
 * on the notify queue (fauxqs, a real SQS engine in this process) and publishes to EventBridge
 * (mocked: no local engine) -> the notifier handler, polled like its event-source mapping, writes
 * the delivery records and sends to an HTTPS receiver on 127.0.0.1 (test CA).
 */

const SECRET = 'whsec-cloud-7d2e91';
const BUS = 'vigil-test-events';

const bridgeClient = new EventBridgeClient({
  region: 'us-east-1',
  credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
});
const bridge = mockClient(bridgeClient);

let h: LambdaHarness;
let receiver: Receiver;

beforeAll(async () => {
  const tls = createTlsFixtures();
  receiver = await startReceiver(tls.valid, SECRET);
  bridge.on(PutEventsCommand).callsFake((input: PutEventsCommandInput) => ({
    FailedEntryCount: 0,
    Entries: (input.Entries ?? []).map((_, i) => ({ EventId: `evt-${i}` })),
  }));
  h = await startLambdaHarness({
    env: { VIGIL_EGRESS_ALLOW: '127.0.0.0/8', VIGIL_EVENT_BUS_NAME: BUS },
    egress: { ca: [tls.caCert] },
    eventBridge: bridgeClient,
  });
  expect(
    (await h.request('POST', '/v1/blueprints', { key: h.adminKey, body: { slug: 'svc', name: 'Service' } }))
      .status,
  ).toBe(201);
}, 60_000);

afterAll(async () => {
  await h?.close();
  await receiver?.close();
  bridge.restore();
});

afterEach(() => {
  vi.useRealTimers();
});

async function call(method: string, path: string, body?: unknown) {
  const res = await h.request(method, path, { key: h.adminKey, ...(body === undefined ? {} : { body }) });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return res.body;
}

/** An entity with a push check (down at the first failure) whose policy sends to `path` on the receiver. */
async function monitored(slug: string, path: string, secret?: string) {
  const { entityId, checkId } = await entityWithPushCheck(call, { slug, name: `${slug} service` });
  const channel = await alertToWebhook(call, checkId, {
    url: `${receiver.origin}${path}`,
    ...(secret ? { secret } : {}),
  });
  return { entityId, checkId, channelId: String(channel.id) };
}

const push = (checkId: string, success: boolean) =>
  call('POST', `/v1/checks/${checkId}/results`, {
    success,
    latency_ms: 5,
    ...(success ? {} : { error_message: 'connection refused' }),
  });

const logsOf = async (checkId: string) => (await call('GET', `/v1/notify/logs?check_id=${checkId}`)).logs;
const requestsTo = (path: string): Received[] => receiver.received.filter((r) => r.path === path);

/** The state-change events put on the bus so far, in order. */
function busEvents() {
  return bridge.commandCalls(PutEventsCommand).flatMap((call) =>
    (call.args[0].input.Entries ?? []).map((entry) => ({
      bus: entry.EventBusName,
      source: entry.Source,
      detailType: entry.DetailType,
      detail: JSON.parse(String(entry.Detail)),
    })),
  );
}

describe('notifications through the Lambda handlers (stream -> notify queue -> notifier)', () => {
  it('delivers the signed state-change event to an HTTPS webhook when a pushed failure moves the entity down', async () => {
    const { entityId, checkId, channelId } = await monitored('payments', '/webhook', SECRET);
    await push(checkId, true);
    await h.drainChanges();
    expect(requestsTo('/webhook')).toEqual([]);

    await push(checkId, false);
    await h.drainChanges();

    const [request] = requestsTo('/webhook');
    expect(requestsTo('/webhook')).toHaveLength(1);
    expect(request?.signatureValid).toBe(true);
    const event = stateChangeEventSchema
      .extend({ check_name: z.string(), kind: z.literal('alert'), reason: z.string().nullable() })
      .strict()
      .parse(JSON.parse(String(request?.body)));
    expect(event.check_name).toBe('Push check for payments, every 1 min');
    expect(event).toMatchObject({
      entity_id: entityId,
      entity_name: 'payments service',
      check_id: checkId,
      tenant_id: h.tenantId,
      from_state: 'up',
      to_state: 'down',
    });
    const [latest] = (await call('GET', '/v1/status/transitions')).transitions;
    expect(latest).toMatchObject({ id: event.transition_id, created_at: event.timestamp });
    const [sent, firstResult] = await logsOf(checkId);
    expect(sent).toMatchObject({
      channel_id: channelId,
      transition_id: event.transition_id,
      status: 'sent',
      attempts: 1,
      attempt_log: [{ status_code: 204, error: null }],
    });
    expect(request?.headers['x-service-delivery']).toBe(sent.id);
    expect(firstResult).toMatchObject({ status: 'skipped', reason: 'first result' });
  });

  it('publishes every state change to the EventBridge bus as detail-type Vigil State Change, the webhook body without check_name and kind as detail', async () => {
    const delivered = JSON.parse(String(requestsTo('/webhook')[0]?.body));

    const published = busEvents().filter((e) => e.detail.check_id === delivered.check_id);

    expect(published.map((e) => [e.detail.from_state, e.detail.to_state])).toEqual([
      ['unknown', 'up'],
      ['up', 'down'],
    ]);
    for (const e of published)
      expect(e).toMatchObject({ bus: BUS, source: 'vigil', detailType: 'Vigil State Change' });
    // The bus carries the state-change event as recorded; webhooks add the check's name and the kind to it.
    const { check_name, kind, reason, ...event } = delivered;
    expect(check_name).toEqual(expect.any(String));
    expect(reason).toEqual(expect.any(String));
    expect(kind).toBe('alert');
    expect(published[1]?.detail).toEqual(event);
  });

  it('sends nothing twice when SQS delivers the same event job again', async () => {
    const delivered = JSON.parse(String(requestsTo('/webhook')[0]?.body));
    const queue = createNotifyJobQueue({
      sqs: h.sqs.sqs,
      queueUrl: h.notifySqs.url,
      logger: silentLogger,
    });

    const { failed } = await queue.enqueue([
      { id: eventJobId(delivered.transition_id), body: { kind: 'event', event: delivered } },
    ]);
    await h.runNotifyJobs();

    expect(failed).toEqual([]);
    expect(requestsTo('/webhook')).toHaveLength(1);
    const forTransition = (await logsOf(delivered.check_id)).filter(
      (d: { transition_id: string }) => d.transition_id === delivered.transition_id,
    );
    expect(forTransition).toHaveLength(1);
    expect(h.notifySqs.size()).toBe(0);
  });

  it('sends the recovery too', async () => {
    const delivered = JSON.parse(String(requestsTo('/webhook')[0]?.body));

    await push(delivered.check_id, true);
    await h.drainChanges();

    const recovery = JSON.parse(String(requestsTo('/webhook')[1]?.body));
    expect(requestsTo('/webhook')[1]?.signatureValid).toBe(true);
    expect(recovery).toMatchObject({ entity_id: delivered.entity_id, from_state: 'down', to_state: 'up' });
    const { check_name: _name, kind, reason: _reason, ...recoveryEvent } = recovery;
    expect(kind).toBe('recovery');
    expect(busEvents().at(-1)?.detail).toEqual(recoveryEvent);
  });

  it('gives a receiver answering 500 exactly 3 attempts, 1 s then 2 s apart through the queue, then marks it failed', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const step = (ms: number) => vi.setSystemTime(Date.now() + ms);
    const { checkId } = await monitored('ledger', '/status/500');
    await push(checkId, true);
    step(1000);
    await h.drainChanges();
    step(1000);
    await push(checkId, false);

    await h.drainChanges();
    const afterFirst = (await logsOf(checkId))[0];
    // The retry delay is the message's visibility, set by the notifier on the failed attempt.
    const firstRetryIn = h.notifySqs.inflightUntil().map((until) => until - Date.now());
    step(999);
    await h.runNotifyJobs();
    const stillOne = requestsTo('/status/500').length;
    step(1);
    await h.runNotifyJobs();
    const afterSecond = (await logsOf(checkId))[0];
    const secondRetryIn = h.notifySqs.inflightUntil().map((until) => until - Date.now());
    step(1999);
    await h.runNotifyJobs();
    const stillTwo = requestsTo('/status/500').length;
    step(1);
    await h.runNotifyJobs();

    expect(afterFirst).toMatchObject({ status: 'retrying', attempts: 1 });
    expect(stillOne).toBe(1);
    expect(afterSecond).toMatchObject({ status: 'retrying', attempts: 2 });
    expect(stillTwo).toBe(2);
    expect(requestsTo('/status/500')).toHaveLength(3);
    const [failed] = await logsOf(checkId);
    expect(failed).toMatchObject({ status: 'failed', attempts: 3 });
    expect(failed.attempt_log.map((a: { status_code: number }) => a.status_code)).toEqual([500, 500, 500]);
    const times = failed.attempt_log.map((a: { at: string }) => Date.parse(a.at));
    expect([times[1] - times[0], times[2] - times[1]]).toEqual([1000, 2000]);
    expect([firstRetryIn, secondRetryIn]).toEqual([[1000], [2000]]);
    expect(h.notifySqs.size()).toBe(0);
    expect(h.notifySqs.deadLetterBodies()).toEqual([]);
  });
});

describe('the cloud composition of notifications', () => {
  it('fails the notifier invocation, naming the variable, when VIGIL_NOTIFY_QUEUE_URL is unset', async () => {
    const cloud = createCloudApp(loadConfig('cloud', { VIGIL_LOG_LEVEL: 'silent' }));

    const handler = cloud.notifierHandler();

    await expect(
      handler(sqsEvent([{ messageId: 'm1', body: '{}' }]), lambdaContext('notifier')),
    ).rejects.toThrow(/VIGIL_NOTIFY_QUEUE_URL is not set/);
    await expect(cloud.app.notifyQueue.enqueue([])).rejects.toThrow(/VIGIL_NOTIFY_QUEUE_URL is not set/);
    cloud.sqs.destroy();
  });

  it('adds the bus publisher to the stream consumers only when VIGIL_EVENT_BUS_NAME is set', () => {
    const without = createCloudApp(loadConfig('cloud', { VIGIL_LOG_LEVEL: 'silent' }));
    const withBus = createCloudApp(
      loadConfig('cloud', { VIGIL_LOG_LEVEL: 'silent', VIGIL_EVENT_BUS_NAME: BUS }),
    );

    expect(without.streamConsumers).toEqual(without.app.consumers);
    expect(withBus.streamConsumers).toHaveLength(withBus.app.consumers.length + 1);
    expect(withBus.streamConsumers.slice(0, -1)).toEqual(withBus.app.consumers);
    without.sqs.destroy();
    withBus.sqs.destroy();
  });
});
