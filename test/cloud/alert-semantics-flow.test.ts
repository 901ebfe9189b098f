import { describe, expect, it } from 'vitest';
import { isoTime } from '../../lib/domain/formats/iso-time.ts';
import type { NotifyQueueJob as NotifyJob } from '../../lib/features/list.ts';
import { escalateJobId, recoveryDueJobId } from '../../lib/notify/items/job-ids.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { alertToWebhook, entityWithPushCheck } from '../support/push-fixtures.ts';
import { notifyFlowRig } from './notify-flow.ts';

/**
 * Issue 35's deferred recoveries and inhibition through the cloud runtime's Lambda handlers over
 * DynamoDB Local and a real SQS engine (fauxqs), on a fake clock (the local flow:
 * test/notify/deferred-recovery.test.ts, test/notify/inhibition.test.ts). A delayed job's delay is
 * real time in fauxqs, so once the fake clock has passed its due time the test queues it again
 * without a delay (what the queue does when the delay ends), as test/cloud/escalation-flow.test.ts.
 */

const T0 = Date.parse('2026-03-03T09:00:00.000Z');
const clock = createFakeClock(T0);
const flow = notifyFlowRig(clock, { blueprint: { slug: 'svc', name: 'Service' } });
const { call, push } = flow;

/** An entity with a push check whose own webhook channel posts to `path`; `cooldown` seconds between alerts. */
async function monitored(name: string, path: string, cooldown: number) {
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const made = await entityWithPushCheck(call, { slug, name });
  await alertToWebhook(
    call,
    made.checkId,
    { url: `${flow.receiver.origin}${path}` },
    { cooldown_seconds: cooldown },
  );
  return made;
}

const queuedJobs = () => flow.queued();

/** Queues `job` with no delay (its delay ended) and runs the notifier on what is visible. */
async function deliverNow(id: string, job: NotifyJob) {
  await flow.requeueNow([{ id, job }]);
  await flow.h.runNotifyJobs();
  await flow.h.drainChanges();
}

// biome-ignore lint/suspicious/noExplicitAny: webhook bodies are inspected freely
const bodiesAt = (path: string): any[] =>
  flow.receiver.received.filter((r) => r.path === path).map((r) => JSON.parse(r.body.toString('utf8')));
const rows = async (checkId: string) =>
  ((await call('GET', `/v1/notify/logs?check_id=${checkId}`)).logs as Record<string, unknown>[]).map(
    (d) => `${d.kind}:${d.status}${d.reason ? `:${d.reason}` : ''}`,
  );

describe('deferred recoveries on the cloud runtime', () => {
  it('defers a recovery inside the cooldown and sends it at the cooldown’s end as kind recovery', async () => {
    const { checkId } = await monitored('Web node 1', '/web-1', 300);
    await push(checkId, false);
    expect(bodiesAt('/web-1').map((b) => b.kind)).toEqual(['alert']);
    const dueMs = clock.now() + 300_000;
    clock.advance(100_000);
    await push(checkId, true);
    expect(bodiesAt('/web-1')).toHaveLength(1);
    const deferred = `alert:deferred:deferred: cooldown, due ${isoTime(dueMs)}`;
    expect((await rows(checkId)).slice(0, 2)).toEqual([deferred, 'alert:sent']);

    const [queued] = queuedJobs().filter(
      (q) => q.job.kind === 'recovery_due' && q.job.event.check_id === checkId,
    );
    expect(queued?.id).toBe(
      recoveryDueJobId(queued?.job.kind === 'recovery_due' ? queued.job.event.transition_id : ''),
    );
    if (!queued) throw new Error('no recovery_due job');
    clock.advance(dueMs - clock.now() + 1000);
    await deliverNow(queued.id, queued.job);
    expect(bodiesAt('/web-1').map((b) => `${b.kind}:${b.from_state}->${b.to_state}`)).toEqual([
      'alert:unknown->down',
      'recovery:down->up',
    ]);
    expect((await rows(checkId)).slice(0, 3)).toEqual(['alert:sent', deferred, 'alert:sent']);
    // A redelivery sends nothing more.
    await deliverNow(`${queued.id}:again`, queued.job);
    expect(bodiesAt('/web-1')).toHaveLength(2);
  });

  it('cancels a deferred recovery when the entity goes down again before it is due', async () => {
    const { checkId } = await monitored('Web node 2', '/web-2', 300);
    await push(checkId, false);
    const dueMs = clock.now() + 300_000;
    clock.advance(100_000);
    await push(checkId, true);
    clock.advance(50_000);
    await push(checkId, false);
    const [queued] = queuedJobs().filter(
      (q) => q.job.kind === 'recovery_due' && q.job.event.check_id === checkId,
    );
    if (!queued) throw new Error('no recovery_due job');
    clock.advance(dueMs - clock.now() + 1000);
    await deliverNow(queued.id, queued.job);
    expect(bodiesAt('/web-2').map((b) => b.kind)).toEqual(['alert']);
    expect((await rows(checkId))[1]).toBe(
      `alert:skipped:deferred: cooldown, due ${isoTime(dueMs)}; cancelled: Web node 2 changed again before it was due`,
    );
  });
});

describe('inhibition on the cloud runtime (Nightly Backup depends_on Orders DB)', () => {
  it('does not escalate a held alert, names it in the root cause’s escalation, and escalates it from its release', async () => {
    const db = await monitored('Orders DB', '/orders-db', 0);
    const backup = await monitored('Nightly Backup', '/backup', 0);
    await call('POST', '/v1/relations', {
      from_entity_id: backup.entityId,
      to_entity_id: db.entityId,
      relation_type: 'depends_on',
    });
    await call('POST', '/v1/status-pages', {
      slug: 'acme-shop',
      title: 'Acme Shop',
      entity_ids: [backup.entityId],
    });
    const pager = await call('POST', '/v1/notify/channels', {
      name: 'pager',
      channel_type: 'webhook',
      config: { url: `${flow.receiver.origin}/pager` },
    });
    const route = await call('POST', '/v1/notify/routes', {
      match: { entity_ids: [db.entityId, backup.entityId] },
      escalate_after_seconds: 60,
      escalate_channel_ids: [pager.id],
    });
    for (const e of [db, backup]) await push(e.checkId, true);
    clock.advance(1000);
    await push(db.checkId, false);
    await push(backup.checkId, false);
    expect(bodiesAt('/orders-db').map((b) => b.kind)).toEqual(['alert']);
    expect(bodiesAt('/backup')).toEqual([]);
    expect((await rows(backup.checkId))[0]).toBe('alert:skipped:upstream Orders DB is down');

    const incidentOf = async (entityId: string) =>
      String((await call('GET', `/v1/incidents?entity_id=${entityId}&state=open`)).incidents[0]?.id);
    const dbIncident = await incidentOf(db.entityId);
    // One incident per root cause: Nightly Backup joined Orders DB's, it has none of its own.
    expect(await incidentOf(backup.entityId)).toBe(dbIncident);
    const escalates = () => queuedJobs().filter((q) => q.job.kind === 'escalate');
    // Held: no escalation is even scheduled for Nightly Backup.
    expect(escalates().map((q) => q.id)).toContain(escalateJobId(dbIncident, String(route.id)));
    expect(
      escalates().filter((q) => q.job.kind === 'escalate' && q.job.event.entity_id === backup.entityId),
    ).toEqual([]);

    clock.advance(61_000);
    const dbJob = escalates().find((q) => q.id === escalateJobId(dbIncident, String(route.id)));
    if (!dbJob) throw new Error('no escalate job');
    await deliverNow(dbJob.id, dbJob.job);
    const [escalation] = bodiesAt('/pager');
    expect(escalation).toMatchObject({
      kind: 'escalation',
      entity_name: 'Orders DB',
      unacknowledged_seconds: 61,
      holding: {
        dependents: [{ entity_id: backup.entityId, name: 'Nightly Backup', state: 'down' }],
        dependents_total: 1,
        status_pages: [{ slug: 'acme-shop', title: 'Acme Shop' }],
      },
    });
    expect(bodiesAt('/pager')).toHaveLength(1);

    // Orders DB recovers: the all-clear names Nightly Backup as still down, whose held alert is sent
    // now and escalates 60 s from now.
    clock.advance(10_000);
    await push(db.checkId, true);
    expect(bodiesAt('/orders-db').at(-1)).toMatchObject({
      kind: 'recovery',
      holding: { dependents: [], still_down: [{ name: 'Nightly Backup' }] },
    });
    expect(bodiesAt('/backup').map((b) => `${b.kind}:${b.to_state}`)).toEqual(['alert:down']);
    // Orders DB's incident resolved under it: Nightly Backup, still down, has its own now.
    const backupIncident = await incidentOf(backup.entityId);
    expect(backupIncident).not.toBe(dbIncident);
    const released = escalates().filter(
      (q) => q.job.kind === 'escalate' && q.job.incident_id === backupIncident,
    );
    expect(released).toHaveLength(1);
    expect(released[0]?.job.kind === 'escalate' && released[0].job.due_ms).toBe(clock.now() + 60_000);
  });
});
