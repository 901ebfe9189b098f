import { describe, expect, it } from 'vitest';
import { describeAlert } from '../../lib/notify/channels/message.ts';
import { publicDelivery, publicDeliverySchema } from '../../lib/notify/deliveries/delivery-responses.ts';
import type { TenantChannelRecord } from '../../lib/notify/items/channel-items.ts';
import type { NotifyJob } from '../../lib/notify/jobs.ts';
import { isoTime } from '../../lib/platform/clock.ts';
import { newId } from '../../lib/platform/ids.ts';
import { deployWindow, downEntity, flowHarnessPerTest } from './support/flow-harness.ts';

/**
 * Escalation on the local runtime's real notification flow (SQLite table, change feed, durable
 * notify queue, job runner) on fake time: an incident still open `escalate_after_seconds` after it
 * opened is sent once to the route's escalation channels; acknowledged or resolved before, nothing;
 * a channel named by two routes gets one escalation; a redelivered job sends nothing more; in a
 * maintenance window the escalation is logged skipped and sent when the window ends if the incident
 * is still open. The cloud path: test/cloud/escalation-flow.test.ts.
 */

const h = flowHarnessPerTest();

const MINUTE = 60_000;

/** A tenant channel stored directly (a webhook never dialled: the senders are fake). */
async function shared(name: string): Promise<string> {
  const now = isoTime(h.time.clock.now());
  const record: TenantChannelRecord = {
    id: newId('chn', h.time.clock.now()),
    tenant_id: h.tenantId,
    name,
    created_at: now,
    updated_at: now,
    channel_type: 'webhook',
    config: { url: `https://hooks.example.com/${name}` },
  };
  expect(await h.app.channels.createShared(record)).toBe(true);
  return record.id;
}

const route = (escalateAfter: number, channelIds: string[], match: Record<string, unknown> = {}) =>
  h.call(
    'POST',
    '/v1/notify/routes',
    { match, escalate_after_seconds: escalateAfter, escalate_channel_ids: channelIds },
    201,
  );

/** The channel ids escalations were sent to, in order. */
const escalatedTo = () => h.sent.filter((s) => s.alert.kind === 'escalation').map((s) => s.channel.id);

const escalationLogs = async (checkId: string) =>
  (await h.logs(checkId))
    .filter((l) => l.kind === 'escalation')
    .map((l) => `${l.channel_id}:${l.status}${l.reason ? `:${l.reason}` : ''}`);

describe('escalation', () => {
  it('sends an unacknowledged incident once to the escalation channels after the delay, saying so', async () => {
    const pager = await shared('pager');
    await route(300, [pager]);
    const { checkId, incidentId } = await downEntity(h);
    await h.time.advance(4 * MINUTE + 50_000, 5000);
    expect(escalatedTo()).toEqual([]);
    await h.time.advance(20_000, 1000);
    expect(escalatedTo()).toEqual([pager]);
    await h.time.advance(30 * MINUTE, MINUTE);
    expect(escalatedTo()).toEqual([pager]);

    const sent = h.sent.find((s) => s.alert.kind === 'escalation');
    const message = describeAlert(sent?.alert as NonNullable<typeof sent>['alert'], undefined);
    expect(message.title).toBe('Escalation: API is down and unacknowledged');
    expect(message.note).toBe('Escalated: the incident has been unacknowledged for 5 minutes.');
    expect(await escalationLogs(checkId)).toEqual([`${pager}:sent`]);
    // The delivery log's API shape names it (the router takes the query apart: the records, then their shape).
    const shown = (await h.logs(checkId))
      .filter((l) => l.kind === 'escalation')
      .map((l) => publicDelivery(l));
    expect(shown.map((d) => publicDeliverySchema.parse(d).event)).toEqual(['escalation']);
    const incident = await h.call('GET', `/v1/incidents/${incidentId}`, undefined, 200);
    expect(
      incident.timeline
        .filter((e: { type: string; kind?: string }) => e.type === 'alert' && e.kind === 'escalation')
        .map((e: { channel_id: string; status: string }) => `${e.channel_id}:${e.status}`),
    ).toEqual([`${pager}:sent`]);
  });

  it('escalates the incident of an entity down from its first result (unknown → down opens one too)', async () => {
    const pager = await shared('pager');
    await route(300, [pager]);
    const fixture = await h.entityWithCheck('API');
    await h.policy(fixture.checkId, { cooldown_seconds: 0 });
    await h.result(fixture.checkId, false);
    await h.time.advance(5 * MINUTE + 20_000, 5000);
    expect(escalatedTo()).toEqual([pager]);
    expect(h.sent.find((s) => s.alert.kind === 'escalation')?.alert.event.to_state).toBe('down');
  });

  it('sends nothing when the incident was acknowledged before the delay', async () => {
    const pager = await shared('pager');
    await route(300, [pager]);
    const { checkId, incidentId } = await downEntity(h);
    await h.time.advance(2 * MINUTE, 5000);
    await h.call('POST', `/v1/incidents/${incidentId}/acknowledge`, undefined, 200);
    await h.time.advance(10 * MINUTE, 10_000);
    expect(escalatedTo()).toEqual([]);
    expect(await escalationLogs(checkId)).toEqual([]);
  });

  it('sends nothing when the incident was resolved before the delay', async () => {
    const pager = await shared('pager');
    await route(300, [pager]);
    const { checkId } = await downEntity(h);
    await h.time.advance(2 * MINUTE, 5000);
    await h.result(checkId, true);
    await h.time.advance(10 * MINUTE, 10_000);
    expect(escalatedTo()).toEqual([]);
    expect(await escalationLogs(checkId)).toEqual([]);
    expect(h.sent.map((s) => `${s.alert.kind}:${s.alert.event.to_state}`)).toEqual([
      'alert:down',
      'alert:up',
    ]);
  });

  it('sends a channel named by two routes one escalation; each other channel its own', async () => {
    const pager = await shared('pager');
    const boss = await shared('boss');
    await route(120, [pager]);
    await route(300, [pager, boss], { to_states: ['down'] });
    // A route that does not match the alert escalates nothing.
    await route(60, [await shared('elsewhere')], { to_states: ['degraded'] });
    const { checkId } = await downEntity(h);
    await h.time.advance(3 * MINUTE, 5000);
    expect(escalatedTo()).toEqual([pager]);
    await h.time.advance(5 * MINUTE, 5000);
    expect(escalatedTo()).toEqual([pager, boss]);
    expect((await escalationLogs(checkId)).sort()).toEqual([`${boss}:sent`, `${pager}:sent`].sort());
  });

  it('is harmless when its job is delivered again', async () => {
    const pager = await shared('pager');
    const created = await route(300, [pager]);
    const { checkId, incidentId, entityId } = await downEntity(h);
    await h.time.advance(6 * MINUTE, 10_000);
    expect(escalatedTo()).toEqual([pager]);
    const [transition] = (await h.logs(checkId)).filter(
      (l) => l.kind === 'alert' && l.event.to_state === 'down',
    );
    expect(transition?.entity_id).toBe(entityId);
    const again: NotifyJob = {
      kind: 'escalate',
      event: transition?.event as NonNullable<typeof transition>['event'],
      incident_id: incidentId,
      route_id: created.id,
      due_ms: Date.parse(transition?.event.timestamp ?? '') + 300_000,
    };
    await h.queue.enqueue([{ id: 'esc-redelivered', body: again }]);
    await h.time.advance(MINUTE, 1000);
    expect(escalatedTo()).toEqual([pager]);
    expect(await escalationLogs(checkId)).toEqual([`${pager}:sent`]);
  });

  it('is logged skipped while a maintenance window covers the entity, and sent when it ends', async () => {
    const pager = await shared('pager');
    await route(300, [pager]);
    const { checkId, entityId } = await downEntity(h);
    await deployWindow(h, entityId, 60);
    await h.time.advance(6 * MINUTE, 10_000);
    expect(escalatedTo()).toEqual([]);
    expect(await escalationLogs(checkId)).toEqual([`${pager}:skipped:maintenance: Deploy`]);
    await h.time.advance(50 * MINUTE, MINUTE);
    expect(escalatedTo()).toEqual([]);
    // The window ends with the incident still open: the escalation goes out then, once.
    await h.time.advance(10 * MINUTE, 10_000);
    expect(escalatedTo()).toEqual([pager]);
    await h.time.advance(30 * MINUTE, MINUTE);
    expect(escalatedTo()).toEqual([pager]);
    // Both records carry the incident's opening as their time: the log's order between them is not defined.
    expect((await escalationLogs(checkId)).sort()).toEqual(
      [`${pager}:sent`, `${pager}:skipped:maintenance: Deploy`].sort(),
    );
  });

  it('sends nothing after the window when the incident was acknowledged during it', async () => {
    const pager = await shared('pager');
    await route(300, [pager]);
    const { checkId, entityId, incidentId } = await downEntity(h);
    await deployWindow(h, entityId, 30);
    await h.time.advance(6 * MINUTE, 10_000);
    await h.call('POST', `/v1/incidents/${incidentId}/acknowledge`, undefined, 200);
    await h.time.advance(40 * MINUTE, MINUTE);
    expect(escalatedTo()).toEqual([]);
    expect(await escalationLogs(checkId)).toEqual([`${pager}:skipped:maintenance: Deploy`]);
  });

  it('is logged skipped for good while the check is silenced', async () => {
    const pager = await shared('pager');
    await route(300, [pager]);
    const { checkId } = await downEntity(h);
    await h.policy(checkId, { silenced: true });
    await h.time.advance(30 * MINUTE, MINUTE);
    expect(escalatedTo()).toEqual([]);
    expect(await escalationLogs(checkId)).toEqual([`${pager}:skipped:silenced`]);
  });
});
