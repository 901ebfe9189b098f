import { describe, expect, it } from 'vitest';
import { heldBackBy } from '../../lib/notify/pipeline/suppressed-alert-items.ts';
import { eventually } from '../local/scheduler-helpers.ts';
import { runtimes } from '../support/api-harness.ts';
import { tlsReceiverPerFile, useNotifyRuntime } from './support/notify-runtime.ts';

/**
 * POST /v1/notify/simulate ("why would I (not) be paged") on both runtimes: the decision per channel
 * through the flow's own steps (silence, maintenance, cooldown, upstream, routes, escalation,
 * repeats), for a check or for each check of an entity, readable with a read-only key, another
 * tenant's ids 404; and it sends nothing and writes nothing (the receiver, the delivery log and
 * the held-back markers stay as they were).
 */

const { receiver, ca } = tlsReceiverPerFile();

interface Decision {
  check_id: string | null;
  kind: string;
  channel_id: string | null;
  channel_name: string | null;
  path: string | null;
  route_id: string | null;
  outcome: string;
  reason: string;
  due_at?: string;
  escalation_at?: string;
  repeat_at?: string;
}

describe.each(runtimes)('the alert simulation on the $runtime runtime', ({ start }) => {
  const { api, call, settle } = useNotifyRuntime(start, () => ({
    env: { VIGIL_EGRESS_ALLOW: '127.0.0.0/8' },
    egress: { ca: [ca()] },
  }));
  const simulate = async (body: Record<string, string>): Promise<Decision[]> =>
    (await call('POST', '/v1/notify/simulate', body)).decisions;
  const hook = (path: string) => ({ channel_type: 'slack', config: { url: `${receiver().origin}/${path}` } });

  /** An entity with a push check that is up (failure_threshold 1), and one own channel. */
  async function upEntity(tag: string, slug: string) {
    const bp = await call('POST', '/v1/blueprints', { slug: `sim-${tag}-${slug}`, name: 'Sim' });
    const entity = await call('POST', `/v1/blueprints/${bp.slug}/entities`, { slug, name: `E ${slug}` });
    const check = await call('POST', '/v1/checks', {
      entity_id: entity.id,
      check_type: 'push',
      interval_seconds: 60,
      failure_threshold: 1,
    });
    await call('POST', `/v1/checks/${check.id}/results`, { success: true, latency_ms: 5 });
    await settle();
    return { bp: bp.slug as string, entity, check };
  }

  it('sends to the own channel and names the path, repeats and the escalation of a matching route', async () => {
    const tag = `a-${api().runtime}-${Date.now()}`;
    const { bp, entity, check } = await upEntity(tag, 'api');
    await call('POST', `/v1/checks/${check.id}/policy`, { repeat_interval_seconds: 600 });
    const own = await call('POST', `/v1/checks/${check.id}/policy/channels`, hook(`${tag}/own`));
    const pager = await call('POST', '/v1/notify/channels', { name: 'Pager', ...hook(`${tag}/pager`) });
    const route = await call('POST', '/v1/notify/routes', {
      match: { blueprint_slugs: [bp], to_states: ['down'] },
      channel_ids: [pager.id],
      escalate_after_seconds: 600,
      escalate_channel_ids: [pager.id],
    });

    const before = Date.now();
    const decisions = await simulate({ check_id: check.id, to_state: 'down' });
    const after = Date.now();
    expect(decisions.map((d) => [d.kind, d.channel_id, d.path, d.outcome])).toEqual([
      ['alert', own.id, 'own', 'send'],
      ['alert', pager.id, 'route', 'send'],
      ['escalation', pager.id, 'route', 'send'],
    ]);
    const [ownDecision, routed, escalation] = decisions;
    expect(ownDecision?.reason).toContain("the check's own channel");
    expect(ownDecision?.reason).toContain('repeats every 600 s');
    expect(routed).toMatchObject({ route_id: route.id, channel_name: 'Pager' });
    expect(routed?.reason).toContain(`route ${route.id} (blueprint ${bp}, state down) matches`);
    const at = (iso: string | undefined) => Date.parse(iso ?? '');
    expect(at(escalation?.escalation_at)).toBeGreaterThanOrEqual(before + 600_000);
    expect(at(escalation?.escalation_at)).toBeLessThanOrEqual(after + 600_000);
    expect(at(ownDecision?.repeat_at)).toBeGreaterThanOrEqual(before + 600_000);
    expect(escalation?.reason).toContain('unacknowledged');
    expect(decisions.every((d) => d.check_id === check.id)).toBe(true);

    // The route matches only down: a change to degraded reaches the own channel alone, and does not escalate.
    const recovery = await simulate({ check_id: check.id, to_state: 'degraded' });
    expect(recovery.map((d) => d.channel_id)).toEqual([own.id]);
    expect(recovery[0]?.escalation_at).toBeUndefined();
    // The entity is up already: nothing changes.
    expect(await simulate({ check_id: check.id, to_state: 'up' })).toMatchObject([
      { channel_id: null, outcome: 'skip', reason: `no change: ${entity.name} is up already` },
    ]);
  });

  it('skips a silenced policy, a maintenance window by name and an alert held for a down upstream', async () => {
    const tag = `b-${api().runtime}-${Date.now()}`;
    const { entity, check } = await upEntity(tag, 'shop');
    const own = await call('POST', `/v1/checks/${check.id}/policy/channels`, hook(`${tag}/own`));

    await call('POST', `/v1/checks/${check.id}/policy`, { silenced: true });
    expect(await simulate({ check_id: check.id, to_state: 'down' })).toMatchObject([
      { channel_id: own.id, path: 'own', outcome: 'skip', reason: 'silenced' },
    ]);
    await call('POST', `/v1/checks/${check.id}/policy`, { silenced: false });

    const window = await call('POST', '/v1/maintenance', {
      name: 'Nightly upgrade',
      entity_ids: [entity.id],
      starts_at: new Date(Date.now() - 60_000).toISOString(),
      ends_at: new Date(Date.now() + 3_600_000).toISOString(),
    });
    expect(await simulate({ check_id: check.id, to_state: 'down' })).toMatchObject([
      { channel_id: own.id, outcome: 'skip', reason: 'maintenance: Nightly upgrade' },
    ]);
    await call('DELETE', `/v1/maintenance/${window.id}`);

    // Its upstream goes down (alerting on its own channel), then the dependent's alert is held.
    const upstream = await upEntity(tag, 'db');
    await call('POST', `/v1/checks/${upstream.check.id}/policy`, { cooldown_seconds: 0 });
    await call('POST', `/v1/checks/${upstream.check.id}/policy/channels`, hook(`${tag}/db`));
    await call('POST', '/v1/relations', {
      from_entity_id: entity.id,
      to_entity_id: upstream.entity.id,
      relation_type: 'depends_on',
    });
    await call('POST', `/v1/checks/${upstream.check.id}/results`, {
      success: false,
      latency_ms: 5,
      error_message: 'boom',
    });
    await settle();
    await eventually(() => receiver().received.some((r) => r.path === `/${tag}/db`), 'the upstream alert');

    const logs = async () => (await call('GET', '/v1/notify/logs?limit=200')).logs.length as number;
    const [logsBefore, sentBefore] = [await logs(), receiver().received.length];
    expect(await simulate({ check_id: check.id, to_state: 'down' })).toMatchObject([
      { channel_id: own.id, outcome: 'skip', reason: `upstream ${upstream.entity.name} is down` },
    ]);
    // Nothing sent, nothing stored: no record, no held-back marker, no job left to run.
    await settle();
    expect(await logs()).toBe(logsBefore);
    expect(receiver().received.length).toBe(sentBefore);
    expect(await heldBackBy(api().table, api().tenantId, upstream.entity.id)).toEqual([]);
  });

  it('defers a recovery inside the cooldown to its end, and says "no channels" without any', async () => {
    const tag = `c-${api().runtime}-${Date.now()}`;
    const { check } = await upEntity(tag, 'web');
    await call('POST', `/v1/checks/${check.id}/policy`, { cooldown_seconds: 600 });
    expect(await simulate({ check_id: check.id, to_state: 'down' })).toMatchObject([
      { channel_id: null, path: null, outcome: 'skip', reason: 'no channels' },
    ]);
    const own = await call('POST', `/v1/checks/${check.id}/policy/channels`, hook(`${tag}/own`));
    await call('POST', `/v1/checks/${check.id}/results`, {
      success: false,
      latency_ms: 5,
      error_message: 'x',
    });
    await settle();
    const sent = await eventually(async () => {
      const logs = (await call('GET', `/v1/notify/logs?check_id=${check.id}`)).logs;
      return logs.find((l: { status: string }) => l.status === 'sent');
    }, 'the down alert sent');

    const [recovery] = await simulate({ check_id: check.id, to_state: 'up' });
    expect(recovery).toMatchObject({ channel_id: own.id, outcome: 'defer' });
    expect(recovery?.reason).toMatch(/^cooldown: \d+ s left/);
    expect(Date.parse(recovery?.due_at ?? '')).toBe(Date.parse(sent.sent_at) + 600_000);
  });

  it('says when a route groups the alert and when the storm fold would take it', async () => {
    const tag = `g-${api().runtime}-${Date.now()}`;
    const { bp, check } = await upEntity(tag, 'web');
    const pager = await call('POST', '/v1/notify/channels', { name: 'Pager', ...hook(`${tag}/pager`) });
    await call('POST', '/v1/notify/routes', {
      match: { blueprint_slugs: [bp] },
      channel_ids: [pager.id],
      group_by: 'blueprint',
      group_wait_seconds: 30,
    });
    const [grouped] = await simulate({ check_id: check.id, to_state: 'down' });
    expect(grouped).toMatchObject({ channel_id: pager.id, path: 'route', outcome: 'group' });
    expect(grouped?.reason).toContain(`grouped by blueprint ${bp}`);
    expect(grouped?.reason).toContain('after 30 s');

    // One individual alert a minute: the own channel's first down takes it, the next would fold.
    await call('PUT', '/v1/settings/alerting', { alert_fold_per_minute: 1 });
    const other = await upEntity(tag, 'db');
    const own = await call('POST', `/v1/checks/${other.check.id}/policy/channels`, hook(`${tag}/own`));
    await call('POST', `/v1/checks/${other.check.id}/policy`, { cooldown_seconds: 0 });
    expect((await simulate({ check_id: other.check.id, to_state: 'down' }))[0]).toMatchObject({
      channel_id: own.id,
      outcome: 'send',
    });
    await call('POST', `/v1/checks/${other.check.id}/results`, { success: false, latency_ms: 5 });
    await settle();
    await call('POST', `/v1/checks/${other.check.id}/results`, { success: true, latency_ms: 5 });
    await api().drainChanges();
    const [folded] = await simulate({ check_id: other.check.id, to_state: 'down' });
    expect(folded).toMatchObject({ channel_id: own.id, outcome: 'fold' });
    expect(folded?.reason).toContain('folded into the blueprint');
    await call('PUT', '/v1/settings/alerting', { alert_fold_per_minute: 10 });
  });

  it('simulates each enabled check of an entity, readable with a read-only key', async () => {
    const tag = `d-${api().runtime}-${Date.now()}`;
    const { entity, check } = await upEntity(tag, 'node');
    const second = await call('POST', '/v1/checks', {
      entity_id: entity.id,
      check_type: 'push',
      interval_seconds: 60,
      name: 'Second',
    });
    await call('POST', `/v1/checks/${second.id}/policy`, { silenced: true });
    await call('POST', `/v1/checks/${check.id}/policy/channels`, hook(`${tag}/a`));
    await call('POST', `/v1/checks/${second.id}/policy/channels`, hook(`${tag}/b`));
    const readOnly = await call('POST', '/v1/auth/keys', { label: 'ro', is_read_only: true });
    const res = await api().request('POST', '/v1/notify/simulate', {
      key: readOnly.key,
      body: { entity_id: entity.id, to_state: 'down' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.entity).toEqual({ id: entity.id, name: entity.name, state: 'up' });
    expect(res.body.decisions.map((d: Decision) => [d.check_id, d.outcome, d.reason.split(':')[0]])).toEqual([
      [check.id, 'send', 'sent'],
      [second.id, 'skip', 'silenced'],
    ]);
  });

  it("answers 404 for another tenant's check or entity and 400 for both or neither", async () => {
    const tag = `e-${api().runtime}-${Date.now()}`;
    const { entity, check } = await upEntity(tag, 'x');
    const intruder = (await api().createTenant('Other')).key;
    for (const body of [
      { check_id: check.id, to_state: 'down' },
      { entity_id: entity.id, to_state: 'down' },
    ]) {
      const res = await api().request('POST', '/v1/notify/simulate', { key: intruder, body });
      expect(res.status, res.text).toBe(404);
    }
    for (const body of [
      { check_id: check.id, entity_id: entity.id, to_state: 'down' },
      { to_state: 'down' },
      { check_id: check.id, to_state: 'sideways' },
    ]) {
      const res = await api().request('POST', '/v1/notify/simulate', { key: api().adminKey, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });
});
