import { describe, expect, it } from 'vitest';
import type { NotifyJob } from '../../lib/notify/jobs.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { notifyFlowRig } from './notify-flow.ts';

/**
 * Flapping (issue 35 item 5) through the cloud runtime's Lambda handlers over DynamoDB Local and a
 * real SQS engine (fauxqs), on a fake clock: a check changing more than `flap_changes` times in its
 * window sends one `flapping` webhook, its next alerts are held, and the delayed `flap_settle` job,
 * once due (sent again without its delay, as the queue does when the delay ends), sends one alert
 * with the state the check settled in: due the policy's settle time after the last change (issue
 * 75), however long the window.
 */

const T0 = Date.parse('2026-03-02T09:00:00.000Z');
const clock = createFakeClock(T0);
const flow = notifyFlowRig(clock, { blueprint: { slug: 'svc', name: 'Service' } });
const { call } = flow;

const push = async (checkId: string, success: boolean) => {
  clock.advance(1000);
  await call('POST', `/v1/checks/${checkId}/results`, { success, latency_ms: 5 });
  await flow.h.drainChanges();
};

const settleJobs = () => flow.queued('flap_settle');

/** Sends `job` to the notify queue with no delay (its delay ended) and runs the notifier on what is visible. */
async function deliverNow(id: string, job: NotifyJob) {
  await flow.requeueNow([{ id, job }]);
  await flow.h.runNotifyJobs();
}

const bodies = (path: string) =>
  flow.receiver.received.filter((r) => r.path === path).map((r) => JSON.parse(String(r.body)));

describe('flapping on the cloud runtime', () => {
  it('sends one flapping notice, holds the alerts, and sends the settled state when the settle job is due', async () => {
    const entity = await call('POST', '/v1/blueprints/svc/entities', { slug: 'api', name: 'API' });
    const check = await call('POST', '/v1/checks', {
      entity_id: entity.id,
      check_type: 'push',
      interval_seconds: 60,
      failure_threshold: 1,
    });
    const checkId = String(check.id);
    await call('POST', `/v1/checks/${checkId}/policy`, {
      cooldown_seconds: 0,
      flap_changes: 2,
      flap_window_seconds: 600,
      flap_settle_seconds: 600,
    });
    await call('POST', `/v1/checks/${checkId}/policy/channels`, {
      channel_type: 'webhook',
      config: { url: `${flow.receiver.origin}/flap` },
    });
    // unknown → down, down → up: alerts; down again: the third change in 600 s is flapping.
    await push(checkId, false);
    await push(checkId, true);
    await push(checkId, false);
    const sent = bodies('/flap');
    expect(sent.map((b) => `${b.kind ?? 'alert'}:${b.to_state}`)).toEqual([
      'alert:down',
      'recovery:up',
      'flapping:down',
    ]);
    expect(sent[2]).toMatchObject({ check_id: checkId, flapping: { changes: 3, window_seconds: 600 } });
    // Held while flapping (the change that started it, and the next): no send, skipped records with the reason.
    await push(checkId, true);
    expect(bodies('/flap')).toHaveLength(3);
    const logs = (await call('GET', `/v1/notify/logs?check_id=${checkId}`)).logs as Record<string, unknown>[];
    expect(logs.filter((l) => l.status === 'skipped').map((l) => l.reason)).toEqual(['flapping', 'flapping']);

    // The last change re-armed the settle look: due 600 s after it.
    const jobs = settleJobs();
    const last = jobs.at(-1);
    if (!last) throw new Error('no flap_settle job queued');
    expect(last.job).toMatchObject({ check_id: checkId, due_ms: clock.now() + 600_000 });
    // The look armed by the third change is stale now: it sends nothing.
    const first = jobs[0];
    if (!first) throw new Error('no first flap_settle job');
    clock.advance(600_000);
    await deliverNow(`${first.id}:due`, first.job);
    expect(bodies('/flap')).toHaveLength(3);
    // Stable for the window: one alert with the settled state (up), and a redelivery sends nothing more.
    await deliverNow(`${last.id}:due`, last.job);
    await deliverNow(`${last.id}:again`, last.job);
    expect(bodies('/flap').map((b) => `${b.kind ?? 'alert'}:${b.to_state}`)).toEqual([
      'alert:down',
      'recovery:up',
      'flapping:down',
      'recovery:up',
    ]);
  });

  it('tells a check that settles up at once its recovery after the settle time, not after the window', async () => {
    const entity = await call('POST', '/v1/blueprints/svc/entities', { slug: 'web', name: 'Web' });
    const check = await call('POST', '/v1/checks', {
      entity_id: entity.id,
      check_type: 'push',
      interval_seconds: 60,
      failure_threshold: 1,
    });
    const checkId = String(check.id);
    await call('POST', `/v1/checks/${checkId}/policy`, {
      cooldown_seconds: 0,
      flap_changes: 2,
      flap_window_seconds: 1800,
      flap_settle_seconds: 120,
    });
    await call('POST', `/v1/checks/${checkId}/policy/channels`, {
      channel_type: 'webhook',
      config: { url: `${flow.receiver.origin}/settle` },
    });
    await push(checkId, false);
    await push(checkId, true);
    await push(checkId, false);
    // Up at once, and it stays up: held, with its settle look 120 s after it (the window is 1,800 s).
    await push(checkId, true);
    const upMs = clock.now();
    const look = settleJobs()
      .filter((j) => j.job.check_id === checkId)
      .at(-1);
    if (!look) throw new Error('no flap_settle job queued');
    expect(look.job.due_ms).toBe(upMs + 120_000);
    clock.advance(120_000);
    await deliverNow(`${look.id}:due`, look.job);
    expect(bodies('/settle').map((b) => `${b.kind ?? 'alert'}:${b.to_state}`)).toEqual([
      'alert:down',
      'recovery:up',
      'flapping:down',
      'recovery:up',
    ]);
  });
});
