import { describe, expect, it } from 'vitest';
import type { EntityState } from '../../lib/catalog/entities/entity-items.ts';
import type { ChannelRecord } from '../../lib/notify/items/channel-items.ts';
import { POLICY_DEFAULTS, type PolicyRecord } from '../../lib/notify/items/policy-items.ts';
import type { RouteRecord } from '../../lib/notify/items/route-items.ts';
import type { AlertContext } from '../../lib/notify/pipeline/job-context.ts';
import { ALERT_STAGES, channelDecisions, runStages } from '../../lib/notify/pipeline/stages.ts';
import { channelPaths } from '../../lib/notify/simulate/simulate-words.ts';

/**
 * The alert path as stages (stages.ts), which the event job acts on and the simulation reports:
 * each stage one `decide(ctx)` over the job's context, run in SPEC.md's order (the first that does
 * not pass decides, later reads are not made), a hold naming its end, a recovery inside the
 * cooldown deferred to it, each channel's part, and how a channel is reached (simulate-words.ts).
 */

const NOW = Date.parse('2026-11-24T10:00:00.000Z');
const policy = (fields: Partial<PolicyRecord> = {}): PolicyRecord => ({
  id: 'pol_1',
  tenant_id: 'tnt_1',
  check_id: 'chk_1',
  ...POLICY_DEFAULTS,
  created_at: '',
  updated_at: '',
  revision: 1,
  ...fields,
});
const down = { name: 'Orders DB', id: 'ent_db' } as EntityState;

function facts(
  change: [string, string],
  fields: Partial<PolicyRecord> = {},
  reads: { window?: string; lastSentMs?: number; upstream?: boolean; flapping?: boolean } = {},
) {
  const asked: string[] = [];
  const unread = () => {
    throw new Error('no stage reads this');
  };
  const f = {
    event: {
      entity_id: 'ent_1',
      entity_name: 'Shop',
      check_id: 'chk_1',
      tenant_id: 'tnt_1',
      from_state: change[0],
      to_state: change[1],
      transition_id: 'trn_1',
      timestamp: new Date(NOW).toISOString(),
    },
    policy: policy(fields),
    nowMs: NOW,
    get entity() {
      return unread();
    },
    get own() {
      return unread();
    },
    get routing() {
      return unread();
    },
    get told() {
      return unread();
    },
    get words() {
      return unread();
    },
    get grouping() {
      return unread();
    },
    async maintenance() {
      asked.push('maintenance');
      return reads.window ? { id: 'mnt_1', name: reads.window, endsMs: NOW + 3_600_000 } : undefined;
    },
    async lastSentMs() {
      asked.push('last sent');
      return reads.lastSentMs;
    },
    async upstreams() {
      asked.push('upstreams');
      return reads.upstream ? [down] : [];
    },
    async flapping() {
      asked.push('flapping');
      return reads.flapping ? { reason: 'flapping', untilMs: NOW + 90_000 } : undefined;
    },
  } as AlertContext;
  return { f, asked };
}

describe('the alert stages', () => {
  it('are each hold of the alert path, in SPEC.md order', () => {
    expect(ALERT_STAGES.map((stage) => stage.name)).toEqual([
      'first result',
      'silenced',
      'maintenance',
      'recovery switch',
      'flapping',
      'deferral',
      'cooldown',
      'upstream',
    ]);
  });

  it('stops at the first stage that does not pass and reads nothing after it', async () => {
    const silenced = facts(['up', 'down'], { silenced: true }, { window: 'Deploy', upstream: true });
    expect(await runStages(silenced.f)).toMatchObject({
      step: 'silenced',
      outcome: 'skip',
      reason: 'silenced',
      untilMs: null,
    });
    expect(silenced.asked).toEqual([]);
    const windowed = facts(['up', 'down'], {}, { window: 'Deploy', upstream: true });
    expect(await runStages(windowed.f)).toMatchObject({
      outcome: 'skip',
      reason: 'maintenance: Deploy',
      untilMs: NOW + 3_600_000,
    });
    expect(windowed.asked).toEqual(['maintenance']);
    expect(await runStages(facts(['unknown', 'up']).f)).toMatchObject({ reason: 'first result' });
  });

  it('holds a flapping check after the recovery switch and before the cooldown', async () => {
    const flapping = facts(['up', 'down'], {}, { flapping: true, lastSentMs: NOW - 1000, upstream: true });
    expect(await runStages(flapping.f)).toMatchObject({
      step: 'flapping',
      outcome: 'skip',
      reason: 'flapping',
      untilMs: NOW + 90_000,
    });
    expect(flapping.asked).toEqual(['maintenance', 'flapping']);
  });

  it('holds a down for a down upstream, naming it, and sends when nothing holds', async () => {
    const held = await runStages(facts(['up', 'down'], {}, { upstream: true }).f);
    expect(held).toMatchObject({
      step: 'upstream',
      reason: 'upstream Orders DB is down',
      untilMs: null,
      upstreams: [down],
    });
    expect(
      await runStages(facts(['up', 'down'], { suppress_when_upstream_down: false }, { upstream: true }).f),
    ).toBe(undefined);
  });

  it('skips a down inside the cooldown until its end (re-judged then) and defers a recovery to it', async () => {
    const lastSentMs = NOW - 119_000;
    expect(await runStages(facts(['up', 'down'], {}, { lastSentMs }).f)).toEqual({
      step: 'cooldown',
      outcome: 'skip',
      reason: 'cooldown: 181 s left',
      untilMs: lastSentMs + 300_000,
      dueMs: lastSentMs + 300_000,
    });
    // The deferral stage: the log and the visible truth name the cooldown.
    expect(await runStages(facts(['down', 'up'], {}, { lastSentMs }).f)).toEqual({
      step: 'cooldown',
      outcome: 'defer',
      reason: 'cooldown: 181 s left',
      untilMs: lastSentMs + 300_000,
      dueMs: lastSentMs + 300_000,
    });
    expect(
      await runStages(facts(['down', 'up'], { notify_on_recovery: false }, { lastSentMs }).f),
    ).toMatchObject({
      outcome: 'skip',
      reason: 'recovery alerts are off',
    });
  });

  it('gives every channel the verdict, or one decision without a channel when there is none', () => {
    const channel = { id: 'chn_1' } as ChannelRecord;
    expect(channelDecisions(undefined, [])).toEqual([
      { channel: null, outcome: 'skip', reason: 'no channels' },
    ]);
    expect(channelDecisions(undefined, [channel])).toEqual([{ channel, outcome: 'send', reason: undefined }]);
    const verdict = {
      step: 'cooldown',
      outcome: 'defer' as const,
      reason: 'cooldown: 5 s left',
      untilMs: NOW,
      dueMs: NOW,
    };
    expect(channelDecisions(verdict, [])).toEqual([
      { channel: null, outcome: 'defer', reason: 'cooldown: 5 s left', dueMs: NOW },
    ]);
  });

  it('tells the check’s own channel, an attached tenant channel and a routed one apart', () => {
    const base = { tenant_id: 'tnt_1', check_id: 'chk_1', created_at: '', channel_type: 'webhook' as const };
    const own = { ...base, id: 'chn_own', config: { url: 'https://hooks.example.com/secret/path' } };
    const attached = { ...base, id: 'chn_att', name: 'Ops', config: { url: 'https://x.example.com/' } };
    const routed = { ...base, id: 'chn_rte', name: 'Pager', config: { url: 'https://y.example.com/' } };
    const route = (id: string, blueprints: string[], channels: string[]): RouteRecord => ({
      id,
      tenant_id: 'tnt_1',
      match: { blueprint_slugs: blueprints, entity_ids: [], to_states: ['down'] },
      channel_ids: channels,
      escalate_after_seconds: null,
      escalation_policy_id: null,
      page_owner_policy: false,
      group_by: 'entity',
      group_wait_seconds: 0,
      group_interval_seconds: 300,
      escalate_channel_ids: [],
      created_at: '',
    });
    const paths = channelPaths(
      [own, attached],
      [route('rte_other', ['db'], ['chn_rte']), route('rte_shop', ['shop'], ['chn_rte'])],
      { entity_id: 'ent_1', blueprint_slug: 'shop', to_state: 'down' },
    );
    expect(paths.of(own)).toMatchObject({
      path: 'own',
      channel_name: 'webhook hooks.example.com',
      route_id: null,
    });
    expect(paths.of(attached)).toMatchObject({ path: 'attached', channel_name: 'Ops' });
    expect(paths.of(routed)).toMatchObject({
      path: 'route',
      route_id: 'rte_shop',
      via: 'route rte_shop (blueprint shop, state down) matches',
    });
  });
});
