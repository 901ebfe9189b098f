import { describe, expect, it } from 'vitest';
import { maintenanceEndJobId } from '../../lib/notify/items/job-ids.ts';
import type { NotifyJob } from '../../lib/notify/jobs.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { alertToWebhook, entityWithPushCheck } from '../support/push-fixtures.ts';
import { notifyFlowRig } from './notify-flow.ts';

/**
 * Maintenance windows through the cloud runtime's Lambda handlers over DynamoDB Local and a real
 * SQS engine (fauxqs), on a fake clock: a pushed result (api handler) moves an entity -> the stream
 * handler runs the change consumers (the action trigger consults the windows) and enqueues the
 * event job -> the notifier decides the alert (skipped during a window, leaving a delayed
 * `maintenance_end` job on the notify queue). The queue's delay is real time in fauxqs, so once the
 * fake clock has passed the window's end the test sends that job as queued again without a delay
 * (what the queue does when the delay ends), as escalation-flow.test.ts does.
 */

const T0 = Date.parse('2026-03-02T09:00:00.000Z');
const MINUTE = 60_000;
const clock = createFakeClock(T0);
const flow = notifyFlowRig(clock, { blueprint: { slug: 'svc', name: 'Service' } });
const { call, push } = flow;

/**
 * An entity with a push check (down at the first failure) that is up: its policy sends to the
 * receiver at `/alert/<slug>`, and a state_change action on down calls `/action/<slug>`.
 */
async function monitored(slug: string) {
  const { entityId, checkId } = await entityWithPushCheck(call, { slug, name: `${slug} service` });
  await alertToWebhook(call, checkId, { url: `${flow.receiver.origin}/alert/${slug}` });
  const action = await call('POST', '/v1/actions', {
    name: `restart ${slug}`,
    url: `${flow.receiver.origin}/action/${slug}`,
    trigger_type: 'state_change',
    check_id: checkId,
    trigger_to_state: 'down',
  });
  await push(checkId, true);
  return { entityId, checkId, actionId: String(action.id) };
}

const hits = (path: string) => flow.receiver.received.filter((r) => r.path === path);
const alertLogs = async (checkId: string) =>
  ((await call('GET', `/v1/notify/logs?check_id=${checkId}`)).logs as Record<string, unknown>[])
    .filter((d) => d.kind === 'alert')
    .map((d) => `${d.status}${d.reason ? `:${d.reason}` : ''}`);
const executions = async (actionId: string) =>
  (await call('GET', `/v1/actions/${actionId}/executions`)).executions as unknown[];

const maintenanceEndJobs = () => flow.queued('maintenance_end');

/** Sends `job` to the notify queue with no delay (its delay ended) and runs the notifier until it settles. */
async function deliverNow(id: string, job: NotifyJob) {
  await flow.requeueNow([{ id, job }]);
  await flow.h.drainChanges();
}

const iso = (ms: number) => new Date(ms).toISOString();
/** The log of the first result (unknown -> up) each entity starts with. */
const FIRST = 'skipped:first result';

describe('maintenance windows on the cloud runtime', () => {
  let covered: Awaited<ReturnType<typeof monitored>>;
  let recovering: Awaited<ReturnType<typeof monitored>>;
  let endsMs: number;
  let windowId: string;

  it('logs a covered entity’s alert skipped with the window’s name and fires none of its actions; an uncovered entity’s alert and action go out', async () => {
    covered = await monitored('api');
    recovering = await monitored('web');
    const other = await monitored('db');
    endsMs = clock.now() + 30 * MINUTE;
    const window = await call('POST', '/v1/maintenance', {
      name: 'Deploy',
      entity_ids: [covered.entityId, recovering.entityId],
      starts_at: iso(clock.now() - MINUTE),
      ends_at: iso(endsMs),
    });
    windowId = String(window.id);
    expect(window.active).toBe(true);

    clock.advance(1000);
    await push(covered.checkId, false);
    await push(recovering.checkId, false);
    await push(other.checkId, false);

    expect(await alertLogs(covered.checkId)).toEqual(['skipped:maintenance: Deploy', FIRST]);
    expect(hits('/alert/api')).toEqual([]);
    expect(hits('/action/api')).toEqual([]);
    expect(await executions(covered.actionId)).toEqual([]);
    // The control: the same set-up outside the window alerts and runs its action.
    expect(await alertLogs(other.checkId)).toEqual(['sent', FIRST]);
    expect(hits('/alert/db')).toHaveLength(1);
    expect(hits('/action/db')).toHaveLength(1);
    expect(await executions(other.actionId)).toHaveLength(1);
    const board = await call('GET', '/v1/status');
    const flags = Object.fromEntries(
      board.entities.map((e: { id: string; in_maintenance: boolean }) => [e.id, e.in_maintenance]),
    );
    expect(flags).toMatchObject({ [covered.entityId]: true, [other.entityId]: false });
    // Each skipped down left one delayed look at the window's end on the notify queue.
    expect(maintenanceEndJobs().map((j) => j.job.due_ms)).toEqual([endsMs, endsMs]);
  });

  it('sends one alert when the window ends with the entity still down, none for one back up before, and nothing twice on redelivery', async () => {
    clock.advance(10 * MINUTE);
    await push(recovering.checkId, true);
    expect(await alertLogs(recovering.checkId)).toEqual([
      'skipped:maintenance: Deploy',
      'skipped:maintenance: Deploy',
      FIRST,
    ]);
    const ends = maintenanceEndJobs();
    const downEnd = ends.find((e) => e.job.event.entity_id === covered.entityId);
    const upEnd = ends.find((e) => e.job.event.entity_id === recovering.entityId);
    if (!downEnd || !upEnd) throw new Error('no maintenance_end jobs queued');
    expect(downEnd.id).toBe(maintenanceEndJobId(downEnd.job.event.transition_id, windowId, endsMs));

    // Before the end, a delivery waits another hop and sends nothing.
    await deliverNow(`${downEnd.id}:early`, downEnd.job);
    expect(hits('/alert/api')).toEqual([]);

    clock.set(endsMs + 1000);
    await deliverNow(downEnd.id, downEnd.job);
    await deliverNow(upEnd.id, upEnd.job);

    expect(hits('/alert/api')).toHaveLength(1);
    const sent = JSON.parse(String(hits('/alert/api')[0]?.body));
    expect(sent).toMatchObject({ entity_id: covered.entityId, from_state: 'up', to_state: 'down' });
    expect(await alertLogs(covered.checkId)).toEqual(['sent', 'skipped:maintenance: Deploy', FIRST]);
    expect(hits('/alert/web')).toEqual([]);
    expect(await alertLogs(recovering.checkId)).toHaveLength(3);
    // The window's end fires no action either: actions follow transitions, not alerts.
    expect(hits('/action/api')).toEqual([]);

    // At-least-once delivery: the same job again (and under another message id) sends nothing more.
    await deliverNow(downEnd.id, downEnd.job);
    await deliverNow(`${downEnd.id}:again`, downEnd.job);
    expect(hits('/alert/api')).toHaveLength(1);
    expect(await alertLogs(covered.checkId)).toEqual(['sent', 'skipped:maintenance: Deploy', FIRST]);
    expect(flow.h.notifySqs.deadLetterBodies()).toEqual([]);
  });
});
