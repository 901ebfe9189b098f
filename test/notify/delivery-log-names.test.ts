import { describe, expect, it } from 'vitest';
import { publicPolicySchema } from '../../lib/notify/api-schemas/responses.ts';
import { logsPageSchema, publicDeliverySchema } from '../../lib/notify/deliveries/delivery-responses.ts';
import { eventually } from '../local/scheduler-helpers.ts';
import { runtimes } from '../support/api-harness.ts';
import { tlsReceiverPerFile, useNotifyRuntime } from './support/notify-runtime.ts';

/**
 * Issue 37's delivery log and notification rough edges on both runtimes: deliveries carry the
 * names of their entity (and where its page is), check and shared channel; the log filters by
 * entity with the other filters; one state change logs one record per channel (two channels of one
 * type read apart by name); a shared channel attached to no check sends its test about no check; a
 * check's policy names the routes that reach it; the repeat field's refusal is a sentence.
 */

const { receiver, ca } = tlsReceiverPerFile();

type Log = {
  id: string;
  entity_id: string | null;
  entity_name: string | null;
  blueprint_slug: string | null;
  entity_slug: string | null;
  check_id: string | null;
  check_name: string | null;
  channel_id: string | null;
  channel_name: string | null;
  channel_type: string | null;
  event: string;
  status: string;
  reason: string | null;
  kind: string;
};

describe.each(runtimes)('the delivery log and notification edges on the $runtime runtime', ({ start }) => {
  const { api, call, settle } = useNotifyRuntime(start, () => ({
    scheduler: false,
    env: { VIGIL_EGRESS_ALLOW: '127.0.0.0/8' },
    egress: { ca: [ca()] },
  }));
  const slack = (path: string) => ({
    channel_type: 'slack',
    config: { url: `${receiver().origin}/${path}` },
  });
  const logs = async (query: string): Promise<Log[]> => {
    const page = await call('GET', `/v1/notify/logs?limit=200&${query}`);
    expect(logsPageSchema.safeParse(page).error).toBeUndefined();
    return page.logs;
  };

  /** A blueprint with an entity and a push check that alerts at once (no cooldown), its first result in. */
  async function world(tag: string, entityName = 'Orders API') {
    const bp = await call('POST', '/v1/blueprints', { slug: `svc-${tag}`, name: 'Service' });
    const entity = await call('POST', `/v1/blueprints/${bp.slug}/entities`, {
      slug: 'api',
      name: entityName,
    });
    const check = await call('POST', '/v1/checks', {
      entity_id: entity.id,
      check_type: 'push',
      name: `Heartbeat ${tag}`,
      interval_seconds: 60,
      failure_threshold: 1,
    });
    await call('POST', `/v1/checks/${check.id}/policy`, { cooldown_seconds: 0 });
    return { bp: bp.slug as string, entity, check };
  }
  const push = async (checkId: string, success: boolean) => {
    await call('POST', `/v1/checks/${checkId}/results`, { success, latency_ms: 5 });
    await settle();
  };

  it('names entity, check and shared channel in every delivery and filters by entity', async () => {
    const tag = `names-${api().runtime}`;
    const a = await world(`${tag}-a`, 'Orders API');
    const b = await world(`${tag}-b`, 'Billing API');
    const shared = await call('POST', '/v1/notify/channels', {
      name: `Ops room ${tag}`,
      ...slack(`${tag}/ops`),
    });
    await call('POST', `/v1/checks/${a.check.id}/policy/channels`, { channel_id: shared.id });
    await call('POST', `/v1/checks/${b.check.id}/policy/channels`, slack(`${tag}/own`));
    for (const { check } of [a, b]) {
      await push(check.id, true);
      await push(check.id, false);
    }

    const ofA = await eventually(async () => {
      const found = await logs(`entity_id=${a.entity.id}`);
      return found.some((l) => l.event === 'down' && l.status === 'sent') ? found : undefined;
    }, 'the down alert of A sent');
    expect(ofA.map((l) => l.event).sort()).toEqual(['down', 'up']);
    expect(ofA.every((l) => l.entity_id === a.entity.id)).toBe(true);
    expect(ofA.find((l) => l.event === 'down')).toMatchObject({
      entity_name: 'Orders API',
      blueprint_slug: a.bp,
      entity_slug: 'api',
      check_id: a.check.id,
      check_name: `Heartbeat ${tag}-a`,
      channel_id: shared.id,
      channel_name: `Ops room ${tag}`,
    });
    // A check's own channel has no name of its own: the check names it.
    const ofB = await logs(`entity_id=${b.entity.id}&status=skipped`);
    expect(ofB).toHaveLength(1);
    expect(ofB[0]).toMatchObject({
      event: 'up',
      reason: 'first result',
      entity_name: 'Billing API',
      channel_name: null,
    });
    // The entity filter with a check of another entity finds nothing.
    expect(await logs(`entity_id=${a.entity.id}&check_id=${b.check.id}`)).toEqual([]);

    // An entity renamed shows its name now; a deleted check keeps the name the event carried.
    await call('PUT', `/v1/blueprints/${a.bp}/entities/api`, { name: 'Orders API v2' });
    expect((await logs(`entity_id=${a.entity.id}`)).every((l) => l.entity_name === 'Orders API v2')).toBe(
      true,
    );
    await call('DELETE', `/v1/checks/${b.check.id}`);
    const gone = await logs(`entity_id=${b.entity.id}`);
    expect(gone.length).toBeGreaterThan(0);
    expect(gone.every((l) => l.check_name === null && l.entity_name === 'Billing API')).toBe(true);
  });

  it('logs one record per channel for one state change: two slack channels read apart by name', async () => {
    const tag = `dup-${api().runtime}`;
    const { check, entity } = await world(tag);
    const first = await call('POST', '/v1/notify/channels', { name: `First ${tag}`, ...slack(`${tag}/1`) });
    const second = await call('POST', '/v1/notify/channels', { name: `Second ${tag}`, ...slack(`${tag}/2`) });
    await call('POST', `/v1/checks/${check.id}/policy/channels`, { channel_id: first.id });
    await call('POST', `/v1/checks/${check.id}/policy/channels`, { channel_id: second.id });
    // A route reaching `first` again adds no record: one per channel per event.
    await call('POST', '/v1/notify/routes', { match: { entity_ids: [entity.id] }, channel_ids: [first.id] });
    await push(check.id, true);
    await push(check.id, true);

    const skipped = await logs(`entity_id=${entity.id}`);
    expect(skipped.map((l) => [l.event, l.status, l.reason])).toEqual([
      ['up', 'skipped', 'first result'],
      ['up', 'skipped', 'first result'],
    ]);
    expect(skipped.map((l) => l.channel_name).sort()).toEqual([`First ${tag}`, `Second ${tag}`]);
    expect(new Set(skipped.map((l) => l.id)).size).toBe(2);
  });

  it('sends a shared channel’s test about no check while it is attached to none', async () => {
    const tag = `test-${api().runtime}`;
    const lonely = await call('POST', '/v1/notify/channels', {
      name: `Lonely ${tag}`,
      ...slack(`${tag}/lonely`),
    });
    const sent = await call('POST', `/v1/notify/channels/${lonely.id}/test`, {});
    expect(publicDeliverySchema.safeParse(sent).error).toBeUndefined();
    expect(sent).toMatchObject({
      kind: 'test',
      event: 'test',
      status: 'sent',
      check_id: null,
      entity_id: null,
      entity_name: null,
      channel_id: lonely.id,
      channel_name: `Lonely ${tag}`,
    });
    const got = receiver().received.filter((r) => r.path === `/${tag}/lonely`);
    expect(got).toHaveLength(1);
    const text = JSON.parse(got[0]?.body.toString() ?? '{}').text as string;
    expect(text).toContain('attached to no check yet');
    expect((await logs(`channel_id=${lonely.id}`)).map((l) => l.id)).toEqual([sent.id]);

    // Once attached, the default is the first attached check, as before.
    const { check } = await world(tag);
    await call('POST', `/v1/checks/${check.id}/policy/channels`, { channel_id: lonely.id });
    const about = await call('POST', `/v1/notify/channels/${lonely.id}/test`, {});
    expect(about).toMatchObject({
      check_id: check.id,
      check_name: `Heartbeat ${tag}`,
      entity_name: 'Orders API',
    });
  });

  it('names in a check’s policy the routes that reach it and their channels', async () => {
    const tag = `routes-${api().runtime}`;
    const { bp, check } = await world(tag);
    const pager = await call('POST', '/v1/notify/channels', {
      name: `Pager ${tag}`,
      ...slack(`${tag}/pager`),
    });
    const elsewhere = await call('POST', '/v1/notify/channels', {
      name: `Else ${tag}`,
      ...slack(`${tag}/else`),
    });
    const byBlueprint = await call('POST', '/v1/notify/routes', {
      match: { blueprint_slugs: [bp], to_states: ['down'] },
      channel_ids: [pager.id],
    });
    await call('POST', '/v1/notify/routes', {
      match: { blueprint_slugs: ['no-such'] },
      channel_ids: [elsewhere.id],
    });

    const policy = await call('GET', `/v1/checks/${check.id}/policy`);
    expect(publicPolicySchema.safeParse(policy).error).toBeUndefined();
    expect(policy.channels).toEqual([]);
    expect(policy.routes).toEqual([
      {
        route_id: byBlueprint.id,
        to_states: ['down'],
        channels: [{ id: pager.id, name: `Pager ${tag}`, channel_type: 'slack' }],
      },
    ]);
    // The routes list names the entities a route matches (no directory needed to read it).
    const byEntity = await call('POST', '/v1/notify/routes', {
      match: { entity_ids: [check.entity_id] },
      channel_ids: [elsewhere.id],
    });
    expect(byEntity.entities).toEqual([
      { id: check.entity_id, name: 'Orders API', blueprint_slug: bp, slug: 'api' },
    ]);
    const listed = (await call('GET', '/v1/notify/routes')).routes.find(
      (r: { id: string }) => r.id === byEntity.id,
    );
    expect(listed.entities).toEqual(byEntity.entities);
    // A check's own channel names its check in the channels list.
    const own = await call('POST', `/v1/checks/${check.id}/policy/channels`, slack(`${tag}/own`));
    const channels = (await call('GET', '/v1/notify/channels?limit=200')).channels;
    expect(channels.find((c: { id: string }) => c.id === own.id)?.check_name).toBe(`Heartbeat ${tag}`);
    expect(channels.find((c: { id: string }) => c.id === pager.id)?.check_name).toBeUndefined();
    // And that route does deliver the check's down alert.
    await push(check.id, true);
    await push(check.id, false);
    await eventually(
      () => receiver().received.some((r) => r.path === `/${tag}/pager`),
      'the routed down alert',
    );
  });

  it('refuses a repeat under a minute with a sentence a person reads at the field', async () => {
    const { check } = await world(`repeat-${api().runtime}`);
    for (const [body, words] of [
      [
        { repeat_interval_seconds: 30 },
        'Repeat at most every minute: enter 60 seconds or more, or 0 for no repeat.',
      ],
      [{ repeat_interval_seconds: 86_401 }, 'Repeat at least once a day'],
      [{ cooldown_seconds: -5 }, 'Enter a cooldown from 0 to 86,400 seconds'],
      [{ flap_window_seconds: 10 }, 'Enter a flap window from 60 to 86,400 seconds'],
    ] as const) {
      const res = await api().request('POST', `/v1/checks/${check.id}/policy`, { key: api().adminKey, body });
      expect(res.status, res.text).toBe(400);
      expect(res.text).toContain(words);
      expect(res.text).not.toMatch(/Too (small|big)|expected number/);
    }
  });
});
