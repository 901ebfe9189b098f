import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNameIndex } from '../../lib/config-doc/names.ts';
import { CONFIG_KINDS } from '../../lib/features/feature-routes.ts';
import { type Joined, join } from '../auth/team-helpers.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { withoutStarterSkill } from '../support/toolsets.ts';
import { FIXTURE_RESOLVE } from './fixtures/index.ts';
import { adminCallOk, httpKindApi } from './kind-api.ts';

/**
 * The config-doc kind escalation_policies against the real API (issue 55, configuration as code):
 * each target named (a schedule, a channel and a team by name, a person by e-mail address in any
 * case) and read back in exactly its parsed form; a replace; an address no member has refused
 * naming the target; two policies of one name refused naming both; and through the configuration
 * routes: a route naming its policy, an unknown schedule failing the plan's reference check,
 * prune taking the route before its policy, and the export rebuilding an emptied tenant exactly.
 */

type Doc = Record<string, unknown>;
type Change = { op: string; kind: string; id: string; status?: string; error?: string };
const words = (changes: Change[]) => changes.map((c) => [c.op, c.kind, c.id, c.status].join(' ').trim());

describe.each(runtimes)('config-doc kind escalation_policies ($runtime runtime)', ({ start }) => {
  let harness: ApiHarness;
  let ana: Joined;
  const ids: Record<string, string> = {};
  const names = createNameIndex();
  const kind = CONFIG_KINDS.escalation_policies;
  const api = httpKindApi(() => harness);
  const call = adminCallOk(() => harness);
  const post = (path: string, body: unknown) =>
    harness.request('POST', path, { key: harness.adminKey, body });
  const exported = async () => {
    const res = await harness.request('GET', '/v1/config/export', {
      key: harness.adminKey,
      headers: { accept: 'application/json' },
    });
    expect(res.status, res.text).toBe(200);
    return res.body as Doc;
  };
  const ladder = (): Doc => ({
    name: 'payments-escalation',
    steps: [
      { delay_seconds: 300, targets: [{ schedule: 'payments' }, { user: ana.email.toUpperCase() }] },
      { delay_seconds: 900, targets: [{ channel: 'ops-hook' }, { team: 'Payments' }] },
    ],
    repeat: 2,
  });

  beforeAll(async () => {
    // The channel's host resolves to 127.0.0.1:9, where nothing listens (nothing is ever sent).
    harness = await start({
      env: { VIGIL_EGRESS_ALLOW: '127.0.0.1/32' },
      egress: { resolve: FIXTURE_RESOLVE },
      scheduler: false,
    });
    await withoutStarterSkill(harness, harness.adminKey);
    ana = await join(harness, harness.adminKey, { role: 'member' });
    ids.schedule = (
      await call('POST', '/v1/schedules', { name: 'payments', time_zone: 'UTC', layers: [] })
    ).id;
    ids.channel = (
      await call('POST', '/v1/notify/channels', {
        name: 'ops-hook',
        channel_type: 'webhook',
        config: { url: 'http://127.0.0.1:9/ops' },
      })
    ).id;
    ids.team = (await call('POST', '/v1/teams', { name: 'Payments', members: [ana.userId] })).id;
    names.set('schedules', 'payments', ids.schedule as string);
    names.set('channels', 'ops-hook', ids.channel as string);
    names.set('teams', 'Payments', ids.team as string);
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('creates a policy with every kind of target by name and reads it back in exactly its parsed form', async () => {
    const doc = kind.schema.parse(ladder());
    const id = await kind.create(api, doc, names);
    names.set('escalation_policies', 'payments-escalation', id);
    expect(await kind.read(api, names)).toStrictEqual([{ id, doc }]);
    const stored = await call('GET', `/v1/escalation-policies/${id}`);
    expect(stored.steps.map((s: { targets: unknown[] }) => s.targets)).toEqual([
      [
        { type: 'schedule', id: ids.schedule },
        { type: 'user', id: ana.userId, email: ana.email },
      ],
      [
        { type: 'channel', id: ids.channel },
        { type: 'team', id: ids.team },
      ],
    ]);
  });

  it('replaces the steps and the repeat on update', async () => {
    const [current] = await kind.read(api, names);
    if (!current) throw new Error('no policy');
    const doc = kind.schema.parse({
      ...ladder(),
      steps: [{ delay_seconds: 60, targets: [{ team: 'Payments' }] }],
    });
    await kind.update(api, current, doc, names);
    expect(await kind.read(api, names)).toStrictEqual([{ id: current.id, doc }]);
  });

  it('refuses an address no member has, naming the target, and creates nothing', async () => {
    const doc = kind.schema.parse({
      name: 'strangers',
      steps: [{ delay_seconds: 0, targets: [{ channel: 'ops-hook' }, { user: 'nobody@example.com' }] }],
    });
    await expect(kind.create(api, doc, names)).rejects.toThrow(
      'steps[0].targets[1].user: no member of this account has the address nobody@example.com',
    );
    expect((await kind.read(api, names)).map((c) => c.doc.name)).toEqual(['payments-escalation']);
  });

  it('refuses a target that names no type, or two', () => {
    const step = (target: unknown) => ({ name: 'odd', steps: [{ delay_seconds: 0, targets: [target] }] });
    expect(kind.schema.safeParse(step({ person: ana.email })).success).toBe(false);
    expect(kind.schema.safeParse(step({ team: 'Payments', channel: 'ops-hook' })).success).toBe(false);
  });

  it('refuses to read two policies of one name, naming both', async () => {
    const twin = await call('POST', '/v1/escalation-policies', {
      name: 'payments-escalation',
      steps: [{ delay_seconds: 0, targets: [{ type: 'team', id: ids.team }] }],
    });
    await expect(kind.read(api, names)).rejects.toThrow(/"payments-escalation" \(esp_\w+, esp_\w+\)/);
    await call('DELETE', `/v1/escalation-policies/${twin.id}`);
  });

  it('exports a route by its policy’s name and fails a plan naming a schedule that does not exist', async () => {
    await call('POST', '/v1/notify/routes', {
      name: 'page-payments',
      escalation_policy_id: names.id('escalation_policies', 'payments-escalation'),
    });
    const document = await exported();
    expect(document.escalation_policies).toEqual([
      {
        name: 'payments-escalation',
        steps: [{ delay_seconds: 60, targets: [{ team: 'Payments' }] }],
        repeat: 2,
        default_for_teams: [],
      },
    ]);
    expect(document.routes).toMatchObject([
      {
        name: 'page-payments',
        channels: [],
        escalation_policy: 'payments-escalation',
        page_owner_policy: false,
      },
    ]);
    expect((await post('/v1/config/plan', document)).body.changes).toEqual([]);

    const unknown = { ...document, escalation_policies: [ladder(), { ...ladder(), name: 'night' }] };
    (unknown.escalation_policies[1]?.steps as Doc[])[0] = {
      delay_seconds: 0,
      targets: [{ schedule: 'nights' }],
    };
    const plan = await post('/v1/config/plan', unknown);
    expect(plan.status).toBe(400);
    expect(plan.body.error).toBe(
      'unknown reference: escalation policy night refers to schedules nights, which is not in the document or the tenant',
    );
    expect(plan.body.details).toEqual([
      {
        path: 'escalation_policies[1]',
        message:
          'escalation policy night refers to schedules nights, which is not in the document or the tenant.',
      },
    ]);
  });

  it('plans for a read-only key policies that page people, by their addresses', async () => {
    const made = await post('/v1/auth/keys', { label: 'read-only', is_read_only: true });
    const readOnly = made.body.key as string;
    const document = { ...(await exported()), escalation_policies: [ladder()] };
    await post('/v1/config/apply', document);
    const plan = await harness.request('POST', '/v1/config/plan', { key: readOnly, body: document });
    expect(plan.status, plan.text).toBe(200);
    expect(plan.body.changes).toEqual([]);
    const readBack = await harness.request('GET', '/v1/config/export', {
      key: readOnly,
      headers: { accept: 'application/json' },
    });
    expect(readBack.status, readBack.text).toBe(200);
    expect(readBack.body.escalation_policies).toEqual([kind.schema.parse(ladder())]);
  });

  it('prunes the route before its policy, and rebuilds the emptied tenant from its export exactly', async () => {
    const document = { ...(await exported()), escalation_policies: [ladder()] };
    // The read-only test above left the tenant so.
    expect(words((await post('/v1/config/apply', document)).body.changes)).toEqual([]);
    const before = await exported();
    expect(before.escalation_policies).toEqual([kind.schema.parse(ladder())]);

    const emptied = await post('/v1/config/apply?prune=true', { apiVersion: 'vigil/v1', kind: 'Config' });
    expect(words(emptied.body.changes)).toEqual([
      'delete routes page-payments applied',
      'delete escalation_policies payments-escalation applied',
      'delete teams Payments applied',
      'delete schedules payments applied',
      'delete channels ops-hook applied',
    ]);
    const rebuilt = await post('/v1/config/apply', before);
    expect(rebuilt.body.summary, rebuilt.text).toMatchObject({ created: 5, failed: 0 });
    expect(await exported()).toEqual(before);
  });

  it('gives a team its policy by default_for_teams, moves it to another in one apply, and lets go of it when the policy leaves', async () => {
    // The team as it is now (the prune above made it anew).
    const teamPolicy = async () =>
      (
        (await call('GET', '/v1/teams')).teams as { name: string; escalation_policy_id: string | null }[]
      ).find((t) => t.name === 'Payments')?.escalation_policy_id;
    const policyNamed = async (name: string) =>
      (await kind.read(api, createNameIndex())).find((c) => c.doc.name === name)?.id;
    const base = await exported();
    const given = await post('/v1/config/apply', {
      ...base,
      escalation_policies: [{ ...ladder(), default_for_teams: ['Payments'] }],
    });
    expect(given.body.summary, given.text).toMatchObject({ failed: 0 });
    expect(await teamPolicy()).toBe(await policyNamed('payments-escalation'));
    expect(((await exported()).escalation_policies as Doc[])[0]?.default_for_teams).toEqual(['Payments']);

    // Moved: the new policy (created after the update of the old one) takes the team; the old lets go.
    const night = { name: 'night', steps: [{ delay_seconds: 0, targets: [{ team: 'Payments' }] }] };
    const moved = await post('/v1/config/apply', {
      ...base,
      escalation_policies: [ladder(), { ...night, default_for_teams: ['Payments'] }],
    });
    expect(words(moved.body.changes), moved.text).toEqual([
      'update escalation_policies payments-escalation applied',
      'create escalation_policies night applied',
    ]);
    expect(await teamPolicy()).toBe(await policyNamed('night'));
    const plan = await post('/v1/config/plan', await exported());
    expect(plan.body.changes).toEqual([]);

    // The policy leaves the document: it lets go of its team, then is deleted.
    const pruned = await post('/v1/config/apply?prune=true', { ...base, escalation_policies: [ladder()] });
    expect(words(pruned.body.changes)).toEqual(['delete escalation_policies night applied']);
    expect(await teamPolicy()).toBeNull();
  });

  it('refuses a document where two policies claim one team, naming both, and changes nothing', async () => {
    const before = await exported();
    const claim = (name: string) => ({ ...ladder(), name, default_for_teams: ['Payments'] });
    const refused = await post('/v1/config/apply', {
      ...before,
      escalation_policies: [claim('one'), claim('two')],
    });
    expect(refused.status).toBe(400);
    const said =
      'escalation_policies[0] and escalation_policies[1] both have "Payments" in default_for_teams; one of them may';
    expect(refused.body.error).toBe(said);
    expect(refused.body.details).toEqual([
      { path: 'escalation_policies[1].default_for_teams', message: `${said}.` },
    ]);
    expect(await exported()).toEqual(before);
  });
});
