import { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { dueJobRequeuer } from '../cloud/queue-kinds.ts';
import { type Receiver, startReceiver } from '../notify/channels/receiver.ts';
import { adminCall, type LambdaHarness, startLambdaHarness } from '../support/api-harness.ts';
import { entityWithPushCheck } from '../support/push-fixtures.ts';
import { type PagerDutyReceiver, pagerDutyEgress, startPagerDuty } from '../support/receivers/pagerduty.ts';
import { createTlsFixtures } from '../support/tls-fixtures.ts';

/**
 * Nothing acknowledged is ever lost (issue 75), on the cloud runtime: the stream function, the
 * api function and the notifier over DynamoDB Local and the queue engine. While SQS refuses the
 * notify queue's job that tells the people a climb paged of the resolution (`page_resolved`) or
 * the providers of an acknowledgement (`acknowledge`), the failure reaches the stream function's
 * batch answer (the mapping delivers the recovery again) or the person's request (an error; the
 * request tried again queues it). Once SQS takes it, the real receiver is told exactly once.
 * The local runtime's cases: test/escalation/resolution-outage.test.ts.
 */

const MINUTE = 60_000;
const ROUTING_KEY = 'R0ut1ngKeyOfTheVigilServ1ce00075';
const clock = createFakeClock(Date.parse('2026-04-06T09:00:00.000Z'));

let h: LambdaHarness;
let receiver: Receiver;
let pd: PagerDutyReceiver;
let requeuer: ReturnType<typeof dueJobRequeuer>;

beforeAll(async () => {
  const tls = createTlsFixtures();
  receiver = await startReceiver(tls.valid, 'unused');
  pd = await startPagerDuty(tls.valid, [ROUTING_KEY]);
  h = await startLambdaHarness({
    clock,
    env: { VIGIL_EGRESS_ALLOW: '127.0.0.0/8' },
    egress: pagerDutyEgress(pd, tls.caCert),
  });
  requeuer = dueJobRequeuer(h, clock.now);
  await call('POST', '/v1/blueprints', { slug: 'svc', name: 'Service' });
}, 60_000);

afterAll(async () => {
  await h?.close();
  await receiver?.close();
  await pd?.close();
});

afterEach(() => {
  vi.restoreAllMocks();
});

const call = (method: string, path: string, body?: unknown) => adminCall(h, method, path, body);

/** The stream function and the notifier until nothing moves, delayed jobs sent again once due (fake time). */
async function settle() {
  for (let round = 0; round < 30; round += 1) {
    await h.drainChanges();
    if ((await requeuer.requeueDue()) === 0) return;
  }
  throw new Error('the queues did not settle after 30 rounds');
}

async function pushResult(checkId: string, success: boolean) {
  clock.advance(1000);
  await call('POST', `/v1/checks/${checkId}/results`, { success, latency_ms: 5 });
}

/** SQS refuses every batch carrying a job of `kind` while `down()` says so; answers how many it refused. */
function sqsRefuses(kind: string, down: () => boolean) {
  const send = h.sqs.sqs.send.bind(h.sqs.sqs);
  let refused = 0;
  vi.spyOn(h.sqs.sqs, 'send').mockImplementation(((command: unknown, ...rest: unknown[]) => {
    if (
      down() &&
      command instanceof SendMessageBatchCommand &&
      (command.input.Entries ?? []).some((e) => JSON.parse(e.MessageBody ?? '{}').body?.kind === kind)
    ) {
      refused += 1;
      return Promise.reject(Object.assign(new Error('Service Unavailable'), { name: 'ServiceUnavailable' }));
    }
    return (send as (...args: unknown[]) => unknown)(command, ...rest);
  }) as typeof send);
  return () => refused;
}

const hits = (path: string) => receiver.received.filter((r) => r.path === path);

describe('a job the notify queue refuses', () => {
  it('telling the people paged of the recovery: the stream delivers the recovery again, told once', async () => {
    const { entityId, checkId } = await entityWithPushCheck(
      call,
      { slug: 'pay', name: 'pay service' },
      { blueprint: 'svc', intervalSeconds: 3600 },
    );
    await call('POST', `/v1/checks/${checkId}/policy`, { cooldown_seconds: 0 });
    const me = (await call('GET', '/v1/me')).user.id;
    const method = await call('POST', '/v1/me/contact-methods', {
      kind: 'ntfy',
      address: `${receiver.origin}/ntfy/me`,
    });
    const code = /(\d{6})/.exec(hits('/ntfy/me').at(-1)?.body.toString('utf8') ?? '')?.[1];
    expect((await call('POST', `/v1/me/contact-methods/${method.id}/verify`, { code })).verified).toBe(true);
    await call('PUT', '/v1/me/notification-rules', {
      rules: [{ after_seconds: 0, contact_method_id: method.id }],
    });
    const policy = await call('POST', '/v1/escalation-policies', {
      name: 'Pay ladder',
      steps: [{ delay_seconds: 60, targets: [{ type: 'user', id: me }] }],
    });
    await call('POST', '/v1/notify/routes', {
      match: { entity_ids: [entityId] },
      escalation_policy_id: policy.id,
    });
    const before = hits('/ntfy/me').length;
    await pushResult(checkId, true);
    await pushResult(checkId, false);
    await settle();
    clock.advance(MINUTE + 1000);
    await settle();
    expect(hits('/ntfy/me')).toHaveLength(before + 1);

    let down = true;
    const refused = sqsRefuses('page_resolved', () => down);
    await pushResult(checkId, true);
    // The stream function's batch with the recovery failed: its answer named it.
    expect(await h.runStreamOnce()).toBeGreaterThan(0);
    expect(refused()).toBeGreaterThan(0);
    await h.runNotifyJobs();
    expect(hits('/ntfy/me')).toHaveLength(before + 1);
    down = false;
    await settle();
    expect(hits('/ntfy/me')).toHaveLength(before + 2);
    expect(hits('/ntfy/me').at(-1)?.body.toString('utf8')).toContain('incident is resolved since');
    // Nothing more comes of it: told exactly once.
    await settle();
    expect(hits('/ntfy/me')).toHaveLength(before + 2);
  });

  it('telling PagerDuty of an acknowledgement: the request is answered, the stream queues it again, told once', async () => {
    const { entityId, checkId } = await entityWithPushCheck(
      call,
      { slug: 'ack', name: 'ack service' },
      { blueprint: 'svc', intervalSeconds: 3600 },
    );
    await call('POST', `/v1/checks/${checkId}/policy`, { cooldown_seconds: 0 });
    await call('POST', `/v1/checks/${checkId}/policy/channels`, {
      channel_type: 'pagerduty',
      config: { routing_key: ROUTING_KEY },
    });
    await pushResult(checkId, true);
    await pushResult(checkId, false);
    await h.drainChanges();
    const [incident] = (await call('GET', `/v1/incidents?entity_id=${entityId}&state=open`)).incidents;
    const incidentId = String(incident?.id);
    expect(pd.alerts.get(incidentId)?.status).toBe('triggered');
    const acks = () =>
      pd.events.filter((e) => e.dedup_key === incidentId && e.event_action === 'acknowledge');

    // The queue refuses the acknowledgement's first job: the caller is answered all the same (the
    // incident's write is durable), and the stream delivers that write again until it is queued.
    const refused: () => number = sqsRefuses('acknowledge', () => refused() === 0);
    const answered = await h.request('POST', `/v1/incidents/${incidentId}/acknowledge`, { key: h.adminKey });
    expect(answered.status).toBe(200);
    await h.drainChanges();
    expect(refused()).toBe(1);
    expect(pd.alerts.get(incidentId)?.status).toBe('acknowledged');
    expect(acks()).toHaveLength(1);
    // Acknowledged again: its job runs again and tells PagerDuty nothing twice.
    await call('POST', `/v1/incidents/${incidentId}/acknowledge`);
    await h.drainChanges();
    expect(acks()).toHaveLength(1);
  });
});
