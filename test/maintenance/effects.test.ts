import { describe, expect, it } from 'vitest';
import type { ActionJob } from '../../lib/actions/jobs.ts';
import type { JobInput } from '../../lib/platform/job-queue.ts';
import { flowHarnessPerTest } from '../notify/support/flow-harness.ts';

/**
 * What a maintenance window does to a covered entity, on the notification flow's real parts and
 * fake time: alerts and repeats are logged skipped with the window's name, state_change actions
 * are not triggered, status and entity records say in_maintenance, and a window that ends with the
 * entity still down sends one alert as for a fresh down.
 */

const h = flowHarnessPerTest();

const MINUTE = 60_000;
const statuses = (logs: { kind: string; status: string; reason: string | null }[]) =>
  logs.map((l) => `${l.kind}:${l.status}${l.reason ? `:${l.reason}` : ''}`);
const iso = (ms: number) => new Date(ms).toISOString();

/** A one-off window from a minute ago for `minutes`. */
async function window(body: Record<string, unknown>, minutes = 30) {
  const now = h.time.clock.now();
  return h.call(
    'POST',
    '/v1/maintenance',
    { name: 'Deploy', starts_at: iso(now - MINUTE), ends_at: iso(now + minutes * MINUTE), ...body },
    201,
  );
}

/** The state_change jobs the action trigger enqueued (the harness's action queue keeps them). */
const triggered = () =>
  (h.app.actionQueue as unknown as { enqueued: JobInput<ActionJob>[] }).enqueued
    .map((job) => job.body)
    .flatMap((body) => (body.kind === 'state_change' ? [body.event.entity_id] : []));

describe('a maintenance window', () => {
  it('logs the alerts of a covered entity skipped with its name and triggers no action; others go on', async () => {
    const covered = await h.entityWithCheck('API');
    const other = await h.entityWithCheck('Web');
    await h.channel(covered.checkId);
    await h.channel(other.checkId);
    // A state_change action on each check: a transition no action could match enqueues no job.
    for (const { checkId } of [covered, other])
      await h.call(
        'POST',
        '/v1/actions',
        { name: 'hook', trigger_type: 'state_change', check_id: checkId, url: 'http://127.0.0.1:9/hook' },
        201,
      );
    await window({ entity_ids: [covered.entityId] });

    await h.result(covered.checkId, false);
    await h.result(other.checkId, false);

    expect(statuses(await h.logs(covered.checkId))).toEqual(['alert:skipped:maintenance: Deploy']);
    expect(statuses(await h.logs(other.checkId))).toEqual(['alert:sent']);
    expect(h.sent.map((s) => s.alert.event.entity_id)).toEqual([other.entityId]);
    expect(triggered()).toEqual([other.entityId]);
  });

  it('marks covered entities in_maintenance on the status board and in entity responses', async () => {
    const covered = await h.entityWithCheck('API');
    const other = await h.entityWithCheck('Web');
    await window({ blueprint_slugs: [], entity_ids: [covered.entityId] });

    const board = await h.call('GET', '/v1/status', undefined, 200);
    const flags = Object.fromEntries(
      board.entities.map((e: { id: string; in_maintenance: boolean }) => [e.id, e.in_maintenance]),
    );
    expect(flags).toEqual({ [covered.entityId]: true, [other.entityId]: false });
    expect((await h.call('GET', '/v1/blueprints/svc/entities/e1', undefined, 200)).in_maintenance).toBe(true);
    expect((await h.call('GET', '/v1/blueprints/svc/entities/e2', undefined, 200)).in_maintenance).toBe(
      false,
    );
    const listed = await h.call('GET', '/v1/blueprints/svc/entities', undefined, 200);
    expect(listed.map((e: { in_maintenance: boolean }) => e.in_maintenance)).toEqual([true, false]);
  });

  it('covers every entity of a listed blueprint', async () => {
    const { checkId } = await h.entityWithCheck('API');
    await h.channel(checkId);
    await window({ blueprint_slugs: ['svc'] });
    await h.result(checkId, false);
    expect(statuses(await h.logs(checkId))).toEqual(['alert:skipped:maintenance: Deploy']);
  });

  it('covers entities that depend on a covered one, transitively, only with include_dependents', async () => {
    const db = await h.entityWithCheck('DB');
    const api = await h.entityWithCheck('API');
    const web = await h.entityWithCheck('Web');
    await h.dependsOn(api.entityId, db.entityId);
    await h.dependsOn(web.entityId, api.entityId);
    for (const e of [db, api, web]) await h.channel(e.checkId);
    const plain = await window({ name: 'DB only', entity_ids: [db.entityId] });

    await h.result(web.checkId, false);
    expect(statuses(await h.logs(web.checkId))).toEqual(['alert:sent']);

    await h.call('PUT', `/v1/maintenance/${plain.id}`, {
      name: 'DB and dependents',
      entity_ids: [db.entityId],
      include_dependents: true,
      starts_at: iso(h.time.clock.now() - MINUTE),
      ends_at: iso(h.time.clock.now() + 30 * MINUTE),
    });
    await h.result(web.checkId, true);
    expect(statuses(await h.logs(web.checkId))).toEqual([
      'alert:skipped:maintenance: DB and dependents',
      'alert:sent',
    ]);
    const board = await h.call('GET', '/v1/status', undefined, 200);
    expect(board.entities.every((e: { in_maintenance: boolean }) => e.in_maintenance)).toBe(true);
  });

  it('sends one alert as for a fresh down when it ends with the entity still down', async () => {
    const down = await h.entityWithCheck('API');
    const recovered = await h.entityWithCheck('Web');
    await h.channel(down.checkId);
    await h.channel(recovered.checkId);
    const { ends_at } = await window({ entity_ids: [down.entityId, recovered.entityId] }, 40);

    await h.result(down.checkId, false);
    await h.result(recovered.checkId, false);
    await h.time.advance(10 * MINUTE, MINUTE);
    await h.result(recovered.checkId, true);
    expect(h.sent).toEqual([]);

    // The end is past a 15-minute queue delay: the look waits in hops.
    await h.time.advance(35 * MINUTE, MINUTE);
    await h.settle();
    expect(h.sent.map((s) => `${s.alert.event.entity_id}:${s.alert.kind}:${s.alert.event.to_state}`)).toEqual(
      [`${down.entityId}:alert:down`],
    );
    expect(h.sent[0]?.atMs).toBeGreaterThanOrEqual(Date.parse(ends_at));
    expect(statuses(await h.logs(down.checkId))).toEqual(['alert:sent', 'alert:skipped:maintenance: Deploy']);
    expect(statuses(await h.logs(recovered.checkId))).toEqual([
      'alert:skipped:maintenance: Deploy',
      'alert:skipped:maintenance: Deploy',
    ]);

    // Once: later time sends nothing more.
    await h.time.advance(30 * MINUTE, MINUTE);
    expect(h.sent).toHaveLength(1);
  });

  it('logs repeats skipped while it is on, and the series goes on after it', async () => {
    const { entityId, checkId } = await h.entityWithCheck('API');
    await h.channel(checkId);
    await h.policy(checkId, { repeat_interval_seconds: 300, cooldown_seconds: 0 });
    await h.result(checkId, false);
    await window({ entity_ids: [entityId] }, 8);

    await h.time.advance(6 * MINUTE, 30_000);
    expect(statuses(await h.logs(checkId))).toEqual(['repeat:skipped:maintenance: Deploy', 'alert:sent']);
    await h.time.advance(5 * MINUTE, 30_000);
    expect(statuses(await h.logs(checkId))).toEqual([
      'repeat:sent',
      'repeat:skipped:maintenance: Deploy',
      'alert:sent',
    ]);
  });

  it('follows a recurring window in its timezone', async () => {
    // The harness starts at 2026-03-02T09:00Z: 10:00 in Berlin, inside "every day at 10:00" + 1 h
    // there, and an hour before the same window read in UTC.
    const { entityId, checkId } = await h.entityWithCheck('API');
    await h.channel(checkId);
    const daily = { entity_ids: [entityId], cron: '0 10 * * *', duration_seconds: 3600 };
    const utc = await h.call('POST', '/v1/maintenance', { name: 'UTC', ...daily }, 201);
    expect(utc).toMatchObject({ active: false, timezone: 'UTC', starts_at: null, ends_at: null });
    const created = await h.call(
      'POST',
      '/v1/maintenance',
      { name: 'Nightly', ...daily, timezone: 'Europe/Berlin' },
      201,
    );
    expect(created.active).toBe(true);
    await h.result(checkId, false);
    expect(statuses(await h.logs(checkId))).toEqual(['alert:skipped:maintenance: Nightly']);
  });
});
