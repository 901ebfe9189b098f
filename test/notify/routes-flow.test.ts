import { describe, expect, it } from 'vitest';
import { channelsForEvent, eventRouting } from '../../lib/notify/items/route-channels.ts';
import { escalationTargets } from '../../lib/notify/items/route-match.ts';
import { eventually } from '../local/scheduler-helpers.ts';
import { runtimes } from '../support/api-harness.ts';
import { tlsReceiverPerFile, useNotifyRuntime } from './support/notify-runtime.ts';

/**
 * Routes and tenant channels on the whole alert path of each runtime: a pushed failure reaches the
 * check's own channel, its attached tenant channel and the channels of the routes it matches (by
 * blueprint, entity and state), each channel once however it was reached; routes that do not
 * match send nothing. Also the routes API, the tenant channel's test message and escalationTargets.
 */

const { receiver, ca } = tlsReceiverPerFile();

describe.each(runtimes)('routes and shared channels on the $runtime runtime', ({ start }) => {
  const { api, call, settle } = useNotifyRuntime(start, () => ({
    env: { VIGIL_EGRESS_ALLOW: '127.0.0.0/8' },
    egress: { ca: [ca()] },
  }));
  const slack = (path: string) => ({
    channel_type: 'slack',
    config: { url: `${receiver().origin}/${path}` },
  });
  const shared = async (path: string) =>
    (await call('POST', '/v1/notify/channels', { name: path, ...slack(path) })).id;
  const hits = (path: string) => receiver().received.filter((r) => r.path === `/${path}`).length;

  /** A blueprint with two entities, a push check on the first (alerting at once, no cooldown). */
  async function world(tag: string) {
    const bp = await call('POST', '/v1/blueprints', { slug: `svc-${tag}`, name: 'Service' });
    const entity = await call('POST', `/v1/blueprints/${bp.slug}/entities`, { slug: 'api', name: 'API' });
    const other = await call('POST', `/v1/blueprints/${bp.slug}/entities`, { slug: 'db', name: 'DB' });
    const check = await call('POST', '/v1/checks', {
      entity_id: entity.id,
      check_type: 'push',
      interval_seconds: 60,
      failure_threshold: 1,
    });
    await call('POST', `/v1/checks/${check.id}/policy`, { cooldown_seconds: 0 });
    await call('POST', `/v1/checks/${check.id}/results`, { success: true, latency_ms: 5 });
    await settle();
    return { bp: bp.slug as string, entity, other, check };
  }

  it('sends one alert per channel per event: own, attached and routed channels, matching routes only', async () => {
    const tag = `${api().runtime}-${Date.now()}`;
    const { bp, entity, other, check } = await world(tag);
    const p = (name: string) => `${tag}/${name}`;
    await call('POST', `/v1/checks/${check.id}/policy/channels`, slack(p('own')));
    const attached = await shared(p('attached'));
    const routed = await shared(p('routed'));
    const onRecovery = await shared(p('recovery'));
    const elsewhere = await shared(p('elsewhere'));
    const otherBlueprint = await shared(p('other-bp'));
    await call('POST', `/v1/checks/${check.id}/policy/channels`, { channel_id: attached });
    // Three routes reach `attached` or `routed` again: each still gets one alert.
    await call('POST', '/v1/notify/routes', {
      match: { blueprint_slugs: [bp] },
      channel_ids: [attached, routed],
    });
    await call('POST', '/v1/notify/routes', { match: { entity_ids: [entity.id] }, channel_ids: [routed] });
    await call('POST', '/v1/notify/routes', {
      match: { entity_ids: [entity.id], to_states: ['down'] },
      channel_ids: [routed, attached],
    });
    await call('POST', '/v1/notify/routes', {
      match: { to_states: ['up'], entity_ids: [entity.id] },
      channel_ids: [onRecovery],
    });
    await call('POST', '/v1/notify/routes', { match: { entity_ids: [other.id] }, channel_ids: [elsewhere] });
    await call('POST', '/v1/notify/routes', {
      match: { blueprint_slugs: ['no-such-bp'] },
      channel_ids: [otherBlueprint],
    });

    const ownId = (await call('GET', `/v1/checks/${check.id}/policy`)).channels[0].id;
    // The union itself, each channel once in the order first reached (own, attached, routed).
    const event = {
      entity_id: entity.id,
      entity_name: 'API',
      check_id: check.id,
      tenant_id: api().tenantId,
      from_state: 'up',
      to_state: 'down',
      transition_id: 'trn_01J9Z3ZZZZZZZZZZZZZZZZZZZZ',
      timestamp: new Date().toISOString(),
    };
    const union = await channelsForEvent(
      { channels: api().app.channels },
      event,
      await api().app.channels.listForCheck(check.id),
      await eventRouting(api().table, event),
    );
    expect(union.map((c) => c.id)).toEqual([ownId, attached, routed]);
    expect(union.every((c) => c.check_id === check.id)).toBe(true);

    await call('POST', `/v1/checks/${check.id}/results`, {
      success: false,
      latency_ms: 5,
      error_message: 'boom',
    });
    await settle();
    await eventually(() => hits(p('own')) && hits(p('attached')) && hits(p('routed')), 'the down alerts');
    const logs = async () =>
      (await call('GET', `/v1/notify/logs?check_id=${check.id}&limit=200`)).logs as {
        channel_id: string | null;
        event: string;
        status: string;
      }[];
    const down = (await eventually(async () => {
      const all = (await logs()).filter((l) => l.event === 'down');
      return all.length >= 3 && all.every((l) => l.status === 'sent') ? all : undefined;
    }, 'the down deliveries sent')) as { channel_id: string | null }[];
    expect(down.map((l) => l.channel_id).sort()).toEqual([attached, routed, ownId].sort());
    expect([hits(p('own')), hits(p('attached')), hits(p('routed'))]).toEqual([1, 1, 1]);

    await call('POST', `/v1/checks/${check.id}/results`, { success: true, latency_ms: 5 });
    await settle();
    await eventually(
      () => hits(p('own')) === 2 && hits(p('attached')) === 2 && hits(p('routed')) === 2,
      'recoveries',
    );
    // A recovery goes only to channels told the entity was not up (DECISIONS.md "Alert truth (wave
    // 5)"): the route of recoveries alone matches, but its channel never heard of the down.
    await eventually(
      async () =>
        (await logs()).some((l) => l.channel_id === onRecovery && l.status === 'skipped') || undefined,
      'the recovery route’s skip',
    );
    expect([hits(p('elsewhere')), hits(p('other-bp')), hits(p('recovery'))]).toEqual([0, 0, 0]);

    // Redelivering the event job stores and sends nothing twice (record ids are per transition and channel).
    const before = receiver().received.length;
    await settle();
    expect(receiver().received.length).toBe(before);
  });

  it('creates, lists and deletes routes; validates ids and bounds', async () => {
    const tag = `r-${api().runtime}-${Date.now()}`;
    const { entity } = await world(tag);
    const channel = await shared(`${tag}/c`);
    const made = await call('POST', '/v1/notify/routes', {
      match: { entity_ids: [entity.id], to_states: ['down', 'degraded'] },
      channel_ids: [channel],
      escalate_after_seconds: 600,
      escalate_channel_ids: [channel],
    });
    expect(made).toMatchObject({
      match: { blueprint_slugs: [], entity_ids: [entity.id], to_states: ['down', 'degraded'] },
      channel_ids: [channel],
      escalate_after_seconds: 600,
      escalate_channel_ids: [channel],
    });
    expect(made.id).toMatch(/^rte_[0-9A-Z]{26}$/);
    const listed = await call('GET', '/v1/notify/routes');
    expect(listed.routes.map((r: { id: string }) => r.id)).toContain(made.id);

    const refused = async (body: unknown, field: string) => {
      const res = await api().request('POST', '/v1/notify/routes', { key: api().adminKey, body });
      expect(res.status, res.text).toBe(400);
      expect(res.body.details.map((d: { path: string }) => d.path).join(' ')).toContain(field);
    };
    await refused({ channel_ids: [] }, 'channel_ids');
    await refused({ channel_ids: ['chn_01J9Z3ZZZZZZZZZZZZZZZZZZZZ'] }, 'channel_ids');
    await refused(
      { channel_ids: [channel], match: { entity_ids: ['ent_01J9Z3ZZZZZZZZZZZZZZZZZZZZ'] } },
      'match.entity_ids',
    );
    await refused({ channel_ids: [channel], match: { to_states: ['sideways'] } }, 'match.to_states');
    await refused({ channel_ids: [channel], escalate_after_seconds: 600 }, 'escalate_channel_ids');
    await refused(
      { channel_ids: [channel], escalate_after_seconds: 5, escalate_channel_ids: [channel] },
      'escalate_after_seconds',
    );
    await refused({ channel_ids: Array.from({ length: 11 }, () => channel) }, 'channel_ids');
    await refused(
      { channel_ids: [channel], match: { blueprint_slugs: Array.from({ length: 51 }, (_, i) => `b${i}`) } },
      'match.blueprint_slugs',
    );

    // Deleting the channel takes it out of the route.
    await call('DELETE', `/v1/notify/channels/${channel}`);
    const after = (await call('GET', '/v1/notify/routes')).routes.find(
      (r: { id: string }) => r.id === made.id,
    );
    expect(after).toMatchObject({ channel_ids: [], escalate_channel_ids: [] });
    expect(
      (await api().request('DELETE', `/v1/notify/routes/${made.id}`, { key: api().adminKey })).status,
    ).toBe(204);
    expect(
      (await api().request('DELETE', `/v1/notify/routes/${made.id}`, { key: api().adminKey })).status,
    ).toBe(404);
  });

  it('answers the escalation targets of matching routes (for the incidents engine)', async () => {
    const tag = `e-${api().runtime}-${Date.now()}`;
    const { bp, entity, other } = await world(tag);
    const first = await shared(`${tag}/a`);
    const second = await shared(`${tag}/b`);
    const byBlueprint = await call('POST', '/v1/notify/routes', {
      match: { blueprint_slugs: [bp], to_states: ['down'] },
      channel_ids: [first],
      escalate_after_seconds: 300,
      escalate_channel_ids: [second],
    });
    const byEntity = await call('POST', '/v1/notify/routes', {
      match: { entity_ids: [entity.id] },
      channel_ids: [first],
      escalate_after_seconds: 900,
      escalate_channel_ids: [first, second],
    });
    await call('POST', '/v1/notify/routes', { match: { entity_ids: [entity.id] }, channel_ids: [second] });
    const subject = { id: entity.id, blueprint_slug: bp };
    const targets = await escalationTargets(api().table, api().tenantId, subject, 'down');
    expect(targets.filter((t) => t.route_id === byBlueprint.id || t.route_id === byEntity.id)).toEqual([
      { route_id: byBlueprint.id, escalate_after_seconds: 300, channel_ids: [second] },
      { route_id: byEntity.id, escalate_after_seconds: 900, channel_ids: [first, second] },
    ]);
    const degraded = await escalationTargets(api().table, api().tenantId, subject, 'degraded');
    expect(degraded.map((t) => t.route_id)).toContain(byEntity.id);
    expect(degraded.map((t) => t.route_id)).not.toContain(byBlueprint.id);
    const elsewhere = await escalationTargets(
      api().table,
      api().tenantId,
      { id: other.id, blueprint_slug: bp },
      'down',
    );
    expect(elsewhere.map((t) => t.route_id)).toContain(byBlueprint.id);
    expect(elsewhere.map((t) => t.route_id)).not.toContain(byEntity.id);
    expect(await escalationTargets(api().table, 'tnt_01J9Z3ZZZZZZZZZZZZZZZZZZZZ', subject, 'down')).toEqual(
      [],
    );
  });

  it("sends a tenant channel's test message, logged like the policy test", async () => {
    const tag = `t-${api().runtime}-${Date.now()}`;
    const { check } = await world(tag);
    const channel = await shared(`${tag}/test`);
    // Attached to no check, its own default is a test message about no check (issue 37).
    const unattached = await call('POST', `/v1/notify/channels/${channel}/test`);
    expect(unattached).toMatchObject({ kind: 'test', channel_id: channel, check_id: null, status: 'sent' });
    const named = await call('POST', `/v1/notify/channels/${channel}/test`, { check_id: check.id });
    expect(named).toMatchObject({
      kind: 'test',
      event: 'test',
      channel_id: channel,
      check_id: check.id,
      status: 'sent',
    });
    await call('POST', `/v1/checks/${check.id}/policy/channels`, { channel_id: channel });
    const byAttachment = await call('POST', `/v1/notify/channels/${channel}/test`);
    expect(byAttachment).toMatchObject({
      kind: 'test',
      channel_id: channel,
      check_id: check.id,
      status: 'sent',
    });
    expect(hits(`${tag}/test`)).toBe(3);
    const body = JSON.parse(
      receiver()
        .received.filter((r) => r.path === `/${tag}/test`)[0]
        ?.body.toString() ?? '{}',
    );
    expect(body.text).toContain('test');
    const logged = await call('GET', `/v1/notify/logs?channel_id=${channel}`);
    expect(logged.logs.map((l: { id: string }) => l.id)).toEqual(
      expect.arrayContaining([named.id, byAttachment.id]),
    );
    // The policy test reaches the attached channel too.
    const policyTest = await call('POST', `/v1/checks/${check.id}/policy/test`);
    expect(policyTest.map((d: { channel_id: string }) => d.channel_id)).toEqual([channel]);
  });
});
