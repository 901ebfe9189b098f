import { describe, expect, it } from 'vitest';
import { escalateJobId } from '../../lib/notify/items/job-ids.ts';
import type { NotifyJob } from '../../lib/notify/jobs.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { entityWithPushCheck } from '../support/push-fixtures.ts';
import { notifyFlowRig } from './notify-flow.ts';

/**
 * Escalation through the cloud runtime's Lambda handlers over DynamoDB Local and a real SQS engine
 * (fauxqs), on a fake clock: the notifier, handling the event job of the transition that opens an
 * incident, puts one delayed `escalate` job per escalating route on the notify queue (id incident +
 * route, due at the opening plus escalate_after_seconds). The queue's delay is real time in fauxqs,
 * so once the fake clock has passed the due time the test sends the job as queued again without a
 * delay (what the queue does when the delay ends): the notifier then sends the escalation once to
 * the route's channel (Slack-shaped, to an HTTPS receiver on 127.0.0.1), a redelivery sends nothing
 * more, and an acknowledged incident's escalation sends nothing.
 */

const T0 = Date.parse('2026-03-02T09:00:00.000Z');
const clock = createFakeClock(T0);
const flow = notifyFlowRig(clock, { blueprint: { slug: 'svc', name: 'Service' } });
const { call, push } = flow;

/** An entity with a push check, a route escalating its downs after 60 s to a tenant channel at `path`; up, then down. */
async function downEntity(slug: string, path: string) {
  const { entityId, checkId } = await entityWithPushCheck(call, { slug, name: `${slug} service` });
  const channel = await call('POST', '/v1/notify/channels', {
    name: path,
    channel_type: 'slack',
    config: { url: `${flow.receiver.origin}${path}` },
  });
  const route = await call('POST', '/v1/notify/routes', {
    match: { entity_ids: [entityId] },
    escalate_after_seconds: 60,
    escalate_channel_ids: [channel.id],
  });
  await push(checkId, true);
  clock.advance(1000);
  await push(checkId, false);
  const { incidents } = await call('GET', `/v1/incidents?entity_id=${entityId}&state=open`);
  expect(incidents).toHaveLength(1);
  return {
    checkId,
    channelId: String(channel.id),
    routeId: String(route.id),
    incidentId: String(incidents[0].id),
  };
}

const escalateJobs = () => flow.queued('escalate');

/** Sends `job` to the notify queue with no delay (its delay ended) and runs the notifier on what is visible. */
async function deliverNow(id: string, job: NotifyJob) {
  await flow.requeueNow([{ id, job }]);
  await flow.h.runNotifyJobs();
}

const hits = (path: string) => flow.receiver.received.filter((r) => r.path === path);
const escalationLogs = async (checkId: string) =>
  ((await call('GET', `/v1/notify/logs?check_id=${checkId}`)).logs as Record<string, unknown>[])
    .filter((d) => d.kind === 'escalation')
    .map((d) => `${d.channel_id}:${d.event}:${d.status}`);

describe('escalation on the cloud runtime', () => {
  it('queues a delayed escalate job when the incident opens and sends once when it is due; a redelivery sends nothing more', async () => {
    const { checkId, channelId, routeId, incidentId } = await downEntity('api', '/esc-api');
    const queued = escalateJobs().filter((e) => e.id === escalateJobId(incidentId, routeId));
    expect(queued).toHaveLength(1);
    const job = queued[0]?.job as NotifyJob & { kind: 'escalate' };
    expect(job.due_ms).toBe(clock.now() + 60_000);
    // Not due yet: nothing is sent (the job waits again in another hop).
    await deliverNow('early', job);
    expect(hits('/esc-api')).toHaveLength(0);

    clock.advance(61_000);
    await deliverNow(escalateJobId(incidentId, routeId), job);
    expect(hits('/esc-api')).toHaveLength(1);
    const text = JSON.stringify(JSON.parse(String(hits('/esc-api')[0]?.body)));
    expect(text).toContain('Escalation: api service is down and unacknowledged');
    expect(text).toContain('unacknowledged for 1 minute.');
    expect(await escalationLogs(checkId)).toEqual([`${channelId}:escalation:sent`]);

    await deliverNow(`${escalateJobId(incidentId, routeId)}:again`, job);
    expect(hits('/esc-api')).toHaveLength(1);
    expect(await escalationLogs(checkId)).toEqual([`${channelId}:escalation:sent`]);
  });

  it('sends nothing for an incident acknowledged before its escalation is due', async () => {
    const { checkId, routeId, incidentId } = await downEntity('db', '/esc-db');
    const [queued] = escalateJobs().filter((e) => e.id === escalateJobId(incidentId, routeId));
    expect(queued).toBeDefined();
    await call('POST', `/v1/incidents/${incidentId}/acknowledge`);
    clock.advance(61_000);
    await deliverNow(`${escalateJobId(incidentId, routeId)}:due`, queued?.job as NotifyJob);
    expect(hits('/esc-db')).toHaveLength(0);
    expect(await escalationLogs(checkId)).toEqual([]);
  });
});
