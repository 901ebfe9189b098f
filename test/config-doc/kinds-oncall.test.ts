import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocKey } from '../../lib/config-doc/kind.ts';
import { createNameIndex } from '../../lib/config-doc/names.ts';
import { CONFIG_KINDS } from '../../lib/features/feature-routes.ts';
import { type Joined, join } from '../auth/team-helpers.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { adminCallOk, httpKindApi } from './kind-api.ts';

/**
 * The config-doc kinds schedules and teams against the real API (issue 55, configuration as
 * code): members named by e-mail address (any case) and read back as the account has them; a
 * schedule's layers, rotations and restrictions read back in exactly their parsed form; an update
 * keeps a layer's id where its name stays, and the schedule's overrides; a team's schedule by name
 * and its owned entities synchronised as owned_by relations; an address no member has, or a
 * name two objects share, refused with what to fix; and apply with prune through the routes.
 */

type Doc = Record<string, unknown>;

describe.each(runtimes)('config-doc kinds schedules and teams ($runtime runtime)', ({ start }) => {
  let harness: ApiHarness;
  let ana: Joined;
  let bob: Joined;
  const names = createNameIndex();
  const api = httpKindApi(() => harness);
  const call = adminCallOk(() => harness);
  const find = async (key: DocKey, identity: string) =>
    (await CONFIG_KINDS[key].read(api, names)).find((c) => CONFIG_KINDS[key].identity(c.doc) === identity);

  const rota = (): Doc => ({
    name: 'payments',
    time_zone: 'Europe/Berlin',
    layers: [
      {
        name: 'Everyone',
        members: [ana.email.toUpperCase(), bob.email],
        rotation: { type: 'weekly', handoff: '09:00', start: '2026-01-05' },
      },
      {
        name: 'Office hours',
        members: [bob.email],
        rotation: { type: 'custom', length_hours: 12, handoff: '08:00', start: '2026-01-05' },
        restrictions: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '09:00', to: '17:00' }],
        starts_at: '2026-01-05T00:00:00.000Z',
      },
    ],
  });

  beforeAll(async () => {
    harness = await start({ scheduler: false });
    ana = await join(harness, harness.adminKey, { role: 'member' });
    bob = await join(harness, harness.adminKey, { role: 'member' });
    await call('POST', '/v1/blueprints', { slug: 'service', name: 'Service' });
    for (const slug of ['api', 'web'])
      names.set(
        'entities',
        `service/${slug}`,
        (await call('POST', '/v1/blueprints/service/entities', { slug, name: slug })).id,
      );
    names.set('blueprints', 'service', 'service');
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('creates a schedule with members by address and reads it back in exactly its parsed form', async () => {
    const kind = CONFIG_KINDS.schedules;
    const doc = kind.schema.parse(rota());
    expect((doc.layers as { members: string[] }[])[0]?.members).toEqual([ana.email, bob.email]);
    const id = await kind.create(api, doc, names);
    names.set('schedules', 'payments', id);
    expect(await find('schedules', 'payments')).toStrictEqual({ id, doc });
    const stored = await call('GET', `/v1/schedules/${id}`);
    expect(stored.layers[0].members.map((m: { id: string }) => m.id)).toEqual([ana.userId, bob.userId]);
  });

  it('updates the layers, keeping the id of a layer whose name stays and the overrides', async () => {
    const kind = CONFIG_KINDS.schedules;
    const current = await find('schedules', 'payments');
    if (!current) throw new Error('no schedule payments');
    const before = await call('GET', `/v1/schedules/${current.id}`);
    await call('POST', `/v1/schedules/${current.id}/overrides`, {
      user_id: ana.userId,
      starts_at: '2030-01-01T00:00:00Z',
      ends_at: '2030-01-02T00:00:00Z',
    });
    const changed = structuredClone(rota()) as { layers: Doc[] };
    changed.layers = [
      { ...changed.layers[0], rotation: { type: 'daily', handoff: '10:00', start: '2026-01-05' } },
    ];
    const doc = kind.schema.parse(changed);
    await kind.update(api, current, doc, names);
    expect(await find('schedules', 'payments')).toStrictEqual({ id: current.id, doc });
    const after = await call('GET', `/v1/schedules/${current.id}`);
    expect(after.layers.map((l: { id: string }) => l.id)).toEqual([before.layers[0].id]);
    expect(after.overrides.map((o: { user: { id: string } }) => o.user.id)).toEqual([ana.userId]);
  });

  it('creates a team on the schedule by name, owning entities, and keeps its owned entities in step', async () => {
    const kind = CONFIG_KINDS.teams;
    const doc = kind.schema.parse({
      name: 'Payments',
      members: [bob.email, ana.email],
      schedule: 'payments',
      default_owner_of: ['service'],
      owns: ['service/web', 'service/api'],
    });
    expect(doc.owns).toEqual(['service/api', 'service/web']);
    const id = await kind.create(api, doc, names);
    expect(await find('teams', 'Payments')).toStrictEqual({ id, doc });
    const who = await call('GET', `/v1/oncall?team_id=${id}`);
    expect(who.on_call[0].path.schedule.name).toBe('payments');

    const current = { id, doc };
    const next = kind.schema.parse({ ...doc, members: [ana.email], owns: ['service/api'], schedule: null });
    await kind.update(api, current, next, names);
    expect(await find('teams', 'Payments')).toStrictEqual({ id, doc: next });
    const team = await call('GET', `/v1/teams/${id}`);
    expect(team.owns.map((o: { entity: { slug: string } }) => o.entity.slug)).toEqual(['api']);
    expect(team.members.map((m: { id: string }) => m.id)).toEqual([ana.userId]);
  });

  it('refuses an address no member has, naming where, and creates nothing', async () => {
    const schedule = CONFIG_KINDS.schedules.schema.parse({
      ...rota(),
      name: 'strangers',
      layers: [{ ...(rota().layers as Doc[])[0], members: [ana.email, 'nobody@example.com'] }],
    });
    await expect(CONFIG_KINDS.schedules.create(api, schedule, names)).rejects.toThrow(
      'layers[0].members[1]: no member of this account has the address nobody@example.com',
    );
    const team = CONFIG_KINDS.teams.schema.parse({ name: 'Ghosts', members: ['ghost@example.com'] });
    await expect(CONFIG_KINDS.teams.create(api, team, names)).rejects.toThrow(
      'members[0]: no member of this account has the address ghost@example.com',
    );
    expect((await CONFIG_KINDS.schedules.read(api, names)).map((c) => c.doc.name)).toEqual(['payments']);
    expect((await CONFIG_KINDS.teams.read(api, names)).map((c) => c.doc.name)).toEqual(['Payments']);
  });

  it('undoes a team whose owned entity fails, so a create is whole or nothing', async () => {
    names.set('entities', 'service/gone', 'ent_00000000000000000000000000');
    const team = CONFIG_KINDS.teams.schema.parse({ name: 'Half', owns: ['service/api', 'service/gone'] });
    await expect(CONFIG_KINDS.teams.create(api, team, names)).rejects.toThrow();
    names.remove('entities', 'service/gone');
    expect((await CONFIG_KINDS.teams.read(api, names)).map((c) => c.doc.name)).toEqual(['Payments']);
  });

  it('refuses to read two schedules of one name, naming both', async () => {
    const twin = await call('POST', '/v1/schedules', { name: 'payments', time_zone: 'UTC', layers: [] });
    await expect(CONFIG_KINDS.schedules.read(api, names)).rejects.toThrow(/"payments" \(sch_\w+, sch_\w+\)/);
    await call('DELETE', `/v1/schedules/${twin.id}`);
  });

  it('applies, exports and prunes schedules and teams through the configuration routes', async () => {
    const post = (path: string, body: unknown) =>
      harness.request('POST', path, { key: harness.adminKey, body });
    const exported = await harness.request('GET', '/v1/config/export', {
      key: harness.adminKey,
      headers: { accept: 'application/json' },
    });
    expect(exported.status, exported.text).toBe(200);
    expect(exported.body.schedules.map((s: Doc) => s.name)).toEqual(['payments']);
    expect((exported.body.schedules[0].layers[0] as Doc).members).toEqual([ana.email, bob.email]);
    expect(exported.body.teams).toEqual([
      {
        name: 'Payments',
        members: [ana.email],
        schedule: null,
        default_owner_of: ['service'],
        owns: ['service/api'],
      },
    ]);
    expect((await post('/v1/config/plan', exported.body)).body.changes).toEqual([]);

    const document = {
      ...exported.body,
      schedules: [{ name: 'night', time_zone: 'UTC', layers: [] }],
      teams: [{ name: 'Night', schedule: 'night', members: [bob.email] }],
    };
    const applied = await post('/v1/config/apply?prune=true', document);
    expect(applied.status, applied.text).toBe(200);
    expect(
      applied.body.changes.map((c: { op: string; kind: string; id: string; status: string }) =>
        [c.op, c.kind, c.id, c.status].join(' '),
      ),
    ).toEqual([
      'create schedules night applied',
      'create teams Night applied',
      'delete teams Payments applied',
      'delete schedules payments applied',
    ]);
    const teams = await call('GET', '/v1/teams');
    expect(
      teams.teams.map((t: { name: string; members: { id: string }[] }) => [t.name, t.members[0]?.id]),
    ).toEqual([['Night', bob.userId]]);
    expect((await post('/v1/config/plan?prune=true', document)).body.changes).toEqual([]);

    // A blueprint has one default owner: two teams claiming one are refused before anything is applied.
    const twoOwners = {
      ...document,
      teams: [
        { name: 'Night', schedule: 'night', members: [bob.email], default_owner_of: ['service'] },
        { name: 'Day', default_owner_of: ['service'] },
      ],
    };
    const refused = await post('/v1/config/apply', twoOwners);
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body.details).toEqual([
      {
        path: 'teams[1].default_owner_of',
        message: 'teams[0] and teams[1] both have "service" in default_owner_of; one of them may.',
      },
    ]);
    expect((await post('/v1/config/plan?prune=true', document)).body.changes).toEqual([]);
  });
});
