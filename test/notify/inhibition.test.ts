import { describe, expect, it } from 'vitest';
import { describeAlert } from '../../lib/notify/channels/message.ts';
import type { TenantChannelRecord } from '../../lib/notify/items/channel-items.ts';
import { isoTime } from '../../lib/platform/clock.ts';
import { newId } from '../../lib/platform/ids.ts';
import { flowHarnessPerTest } from './support/flow-harness.ts';

/**
 * Inhibition holds (issue 35, "Suppression undone"): Nightly Backup depends_on Orders DB; while
 * Orders DB is down, Backup's alert is held back and neither repeats nor escalates; when Orders DB
 * recovers, Backup's alert is evaluated again and, sent, escalates from then. The root cause's
 * alerts name the dependents they hold and the status pages affected; its recovery is the
 * all-clear. Local runtime's real flow on fake time; the cloud path: test/cloud/inhibition-flow.test.ts.
 */

const h = flowHarnessPerTest();

const MINUTE = 60_000;

async function pager(): Promise<string> {
  const now = isoTime(h.time.clock.now());
  const record: TenantChannelRecord = {
    id: newId('chn', h.time.clock.now()),
    tenant_id: h.tenantId,
    name: 'pager',
    created_at: now,
    updated_at: now,
    channel_type: 'webhook',
    config: { url: 'https://hooks.example.com/pager' },
  };
  expect(await h.app.channels.createShared(record)).toBe(true);
  return record.id;
}

/** What was sent, as `<kind>:<entity>:<to_state>`. */
const told = () =>
  h.sent.map((s) => `${s.alert.kind}:${s.alert.event.entity_name}:${s.alert.event.to_state}`);

/** Orders DB, with Nightly Backup and Shop API depending on it; a route escalating after 60 s; 5 min repeats. */
async function scenario() {
  const db = await h.entityWithCheck('Orders DB');
  const backup = await h.entityWithCheck('Nightly Backup');
  const shop = await h.entityWithCheck('Shop API');
  await h.dependsOn(backup.entityId, db.entityId);
  await h.dependsOn(shop.entityId, db.entityId);
  await h.call(
    'POST',
    '/v1/status-pages',
    { slug: 'acme-shop', title: 'Acme Shop', entity_ids: [shop.entityId] },
    201,
  );
  const route = await h.call(
    'POST',
    '/v1/notify/routes',
    { match: {}, escalate_after_seconds: 60, escalate_channel_ids: [await pager()] },
    201,
  );
  for (const e of [db, backup, shop]) {
    await h.channel(e.checkId);
    await h.policy(e.checkId, { cooldown_seconds: 0, repeat_interval_seconds: 300 });
    await h.result(e.checkId, true);
  }
  return { db, backup, shop, routeId: String(route.id) };
}

describe('inhibition', () => {
  it('holds a dependent’s alert back without repeat or escalation while its upstream is down', async () => {
    const { db, backup, shop } = await scenario();
    await h.result(db.checkId, false);
    await h.result(backup.checkId, false);
    await h.result(shop.checkId, false);
    expect(told()).toEqual(['alert:Orders DB:down']);

    await h.time.advance(11 * MINUTE, 10_000);
    // The root cause escalates and repeats; its dependents stay held: no "Escalation: Nightly Backup".
    expect(told().filter((t) => !t.includes('Orders DB'))).toEqual([]);
    expect(told()).toContain('escalation:Orders DB:down');
    expect(told()).toContain('repeat:Orders DB:down');
    const backupLogs = (await h.logs(backup.checkId)).map((l) => `${l.kind}:${l.status}:${l.reason}`);
    expect(backupLogs).toEqual(['alert:skipped:upstream Orders DB is down', 'alert:skipped:first result']);

    // The root cause's escalation names what it holds back and the status page affected.
    const escalation = h.sent.find((s) => s.alert.kind === 'escalation');
    expect(escalation?.alert.holding?.dependents.map((d) => d.name).sort()).toEqual([
      'Nightly Backup',
      'Shop API',
    ]);
    expect(escalation && describeAlert(escalation.alert, undefined).note).toContain(
      'Orders DB is down; holding 2 dependents: ',
    );
    expect(escalation && describeAlert(escalation.alert, undefined).note).toContain(
      'status pages affected: Acme Shop',
    );
  });

  it('releases the held alert when the upstream recovers: it is sent, then repeats and escalates from then', async () => {
    const { db, backup } = await scenario();
    await h.result(db.checkId, false);
    await h.result(backup.checkId, false);
    await h.time.advance(3 * MINUTE, 10_000);
    const before = h.sent.length;

    await h.result(db.checkId, true);
    const released = h.sent
      .slice(before)
      .map((s) => `${s.alert.kind}:${s.alert.event.entity_name}:${s.alert.event.to_state}`);
    expect(released).toEqual(expect.arrayContaining(['alert:Orders DB:up', 'alert:Nightly Backup:down']));
    // The all-clear says which dependents are up again and which are still down.
    const allClear = h.sent.find(
      (s) => s.alert.event.entity_name === 'Orders DB' && s.alert.event.to_state === 'up',
    );
    expect(allClear && describeAlert(allClear.alert, undefined).note).toBe(
      'All clear: Orders DB is up again; 1 dependent up again: Shop API; still down: Nightly Backup; status pages affected: Acme Shop.',
    );

    // 60 s after the release, not after the incident opened (3 minutes before): nothing for 50 s.
    await h.time.advance(50_000, 5000);
    expect(
      h.sent.filter((s) => s.alert.kind === 'escalation' && s.alert.event.entity_name === 'Nightly Backup'),
    ).toEqual([]);
    await h.time.advance(20_000, 5000);
    const escalations = h.sent.filter(
      (s) => s.alert.kind === 'escalation' && s.alert.event.entity_name === 'Nightly Backup',
    );
    expect(escalations).toHaveLength(1);
    await h.time.advance(5 * MINUTE, 10_000);
    expect(told()).toContain('repeat:Nightly Backup:down');
  });

  it('does not send an escalation scheduled before the alert was held, while it is held', async () => {
    const { db, backup, routeId } = await scenario();
    await h.result(db.checkId, false);
    await h.result(backup.checkId, false);
    const [record] = await h.logs(backup.checkId);
    if (!record) throw new Error('no record');
    const { incidents } = await h.app.incidents.list(
      { tenantId: h.tenantId, userId: 'usr_test' },
      { limit: 10, entity_id: backup.entityId, state: 'open' },
    );
    // An escalate job as one scheduled earlier would be (say, before a window's end held the alert).
    await h.notifier.handle({
      id: 'esc:earlier',
      body: {
        kind: 'escalate',
        event: record.event,
        incident_id: String(incidents[0]?.id),
        route_id: routeId,
        due_ms: h.time.clock.now() - 1000,
      },
      attempt: 1,
      receipt: 'r',
    });
    await h.settle();
    expect(told().filter((t) => t.includes('Nightly Backup'))).toEqual([]);
  });
});
