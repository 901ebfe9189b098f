import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { type Joined, join } from '../auth/team-helpers.ts';
import { type ApiHarness, bothRuntimes } from '../support/api-harness.ts';

/**
 * /v1/teams and GET /v1/oncall on both runtimes (the owned_by reads go through the relation
 * indexes, which the two engines keep differently): admins write teams, members and read-only keys
 * read them, another tenant's team is 404; a team owns an entity through an owned_by relation
 * ending at it (or a blueprint by default), and who is on call for the entity follows entity →
 * team → schedule → person, across a handoff; an unknown or unowned entity answers clearly.
 */

const T0 = Date.parse('2026-03-28T12:00:00.000Z');
/** Saturday 28 March 2026 13:00 in Berlin (bob's day), and Sunday 10:00 CEST after the 09:00 handoff (ann's). */
const BEFORE = '2026-03-28T12:00:00.000Z';
const AFTER = '2026-03-29T08:00:00.000Z';
const HANDOFF = '2026-03-29T07:00:00.000Z';

describe.each(bothRuntimes)('teams and who is on call ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let ann: Joined;
  let bob: Joined;
  let scheduleId = '';
  const clock = createFakeClock(T0);
  const req = (method: string, path: string, body?: unknown, key = api.adminKey) =>
    api.request(method, path, { key, body });
  const entityOf = async (blueprint: string, slug: string) => {
    const made = await req('POST', `/v1/blueprints/${blueprint}/entities`, {
      slug,
      name: slug.toUpperCase(),
    });
    expect(made.status, made.text).toBe(201);
    return made.body.id as string;
  };

  beforeAll(async () => {
    api = await start({ clock });
    ann = await join(api, api.adminKey, { role: 'member' });
    bob = await join(api, api.adminKey, { role: 'member' });
    const schedule = await req('POST', '/v1/schedules', {
      name: 'Payments rota',
      time_zone: 'Europe/Berlin',
      layers: [
        {
          name: 'Everyone',
          members: [ann.userId, bob.userId],
          rotation: { type: 'daily', handoff: '09:00', start: '2026-03-27' },
        },
      ],
    });
    expect(schedule.status, schedule.text).toBe(201);
    scheduleId = schedule.body.id;
    for (const slug of ['service', 'database']) {
      expect((await req('POST', '/v1/blueprints', { slug, name: slug })).status).toBe(201);
    }
  });
  afterAll(async () => api?.close());

  it('creates, reads, replaces and deletes teams; members read; read-only keys and members cannot write', async () => {
    const body = { name: 'Payments', members: [ann.userId, bob.userId], schedule_id: scheduleId };
    const made = await req('POST', '/v1/teams', body);
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({
      name: 'Payments',
      members: [
        { id: ann.userId, email: ann.email },
        { id: bob.userId, email: bob.email },
      ],
      escalation_policy_id: null,
      schedule_id: scheduleId,
      default_owner_of: [],
      owns: [],
    });
    expect(made.body.id).toMatch(/^team_/);
    const id = made.body.id;

    expect((await req('GET', `/v1/teams/${id}`, undefined, ann.key)).body.name).toBe('Payments');
    const listed = await req('GET', '/v1/teams', undefined, ann.key);
    expect(listed.body.teams.map((t: { id: string }) => t.id)).toContain(id);

    expect((await req('POST', '/v1/teams', body, ann.key)).status).toBe(403);
    expect((await req('PUT', `/v1/teams/${id}`, body, ann.key)).status).toBe(403);
    expect((await req('DELETE', `/v1/teams/${id}`, undefined, ann.key)).status).toBe(403);
    const readOnly = (await req('POST', '/v1/auth/keys', { label: 'viewer', is_read_only: true })).body.key;
    const refused = await req('POST', '/v1/teams', body, readOnly);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('READ_ONLY');
    expect((await req('GET', `/v1/teams/${id}`, undefined, readOnly)).status).toBe(200);

    const replaced = await req('PUT', `/v1/teams/${id}`, {
      ...body,
      name: 'Payments core',
      members: [bob.userId],
    });
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.body.name).toBe('Payments core');
    expect(replaced.body.members.map((m: { id: string }) => m.id)).toEqual([bob.userId]);

    expect((await req('DELETE', `/v1/teams/${id}`)).status).toBe(204);
    expect((await req('GET', `/v1/teams/${id}`)).status).toBe(404);
    expect((await req('DELETE', `/v1/teams/${id}`)).status).toBe(404);
  });

  it('names what a team body gets wrong by field, and changes nothing', async () => {
    const before = (await req('GET', '/v1/teams')).body.teams.length;
    const stranger = await req('POST', '/v1/teams', {
      name: 'X',
      members: [ann.userId, 'usr_01J00000000000000000000000'],
    });
    expect(stranger.status).toBe(400);
    expect(stranger.body.details).toEqual([
      { path: 'members.1', message: 'No member of this account has this id.' },
    ]);
    const twice = await req('POST', '/v1/teams', { name: 'X', members: [ann.userId, ann.userId] });
    expect(twice.status).toBe(400);
    expect(twice.body.details[0].path).toBe('members.1');
    const noSchedule = await req('POST', '/v1/teams', {
      name: 'X',
      schedule_id: 'sch_01J00000000000000000000000',
    });
    expect(noSchedule.status).toBe(400);
    expect(noSchedule.body.details[0].path).toBe('schedule_id');
    const policy = await req('POST', '/v1/teams', { name: 'X', escalation_policy_id: 'esc_1' });
    expect(policy.status).toBe(400);
    expect(policy.body.details[0].path).toBe('escalation_policy_id');
    const noBlueprint = await req('POST', '/v1/teams', { name: 'X', default_owner_of: ['nothing-here'] });
    expect(noBlueprint.status).toBe(400);
    expect(noBlueprint.body.details[0].path).toBe('default_owner_of.0');
    expect((await req('GET', '/v1/teams')).body.teams).toHaveLength(before);
  });

  it('answers who is on call for an entity through its owning team and schedule, across a handoff', async () => {
    const team = (
      await req('POST', '/v1/teams', { name: 'Shop', members: [ann.userId], schedule_id: scheduleId })
    ).body;
    const shop = await entityOf('service', 'shop-api');
    const db = await entityOf('database', 'shop-db');
    const entityRelation = await req('POST', '/v1/relations', {
      from_entity_id: shop,
      to_entity_id: db,
      relation_type: 'depends_on',
    });
    expect(entityRelation.status).toBe(201);

    const owned = await req('POST', `/v1/teams/${team.id}/entities`, { entity_id: shop });
    expect(owned.status, owned.text).toBe(201);
    expect(owned.body).toMatchObject({
      relation_type: 'owned_by',
      from_entity_id: shop,
      from_entity: { slug: 'shop-api', blueprint_slug: 'service' },
      to_team_id: team.id,
      to_team: { id: team.id, name: 'Shop' },
    });
    expect((await req('POST', `/v1/teams/${team.id}/entities`, { entity_id: shop })).status).toBe(409);
    expect((await req('POST', `/v1/teams/${team.id}/entities`, { entity_id: shop }, ann.key)).status).toBe(
      403,
    );
    expect(
      (await req('POST', `/v1/teams/${team.id}/entities`, { entity_id: 'ent_01J00000000000000000000000' }))
        .status,
    ).toBe(404);
    expect((await req('GET', `/v1/teams/${team.id}`)).body.owns).toEqual([
      {
        relation_id: owned.body.id,
        entity: { id: shop, name: 'SHOP-API', slug: 'shop-api', blueprint_slug: 'service' },
      },
    ]);
    // The entity graph answers as before: the depends_on relation, not the relation to the team.
    const relations = await req('GET', `/v1/relations?entity_id=${shop}`);
    expect(relations.body.map((r: { id: string }) => r.id)).toEqual([entityRelation.body.id]);
    expect(relations.body[0]).toEqual(entityRelation.body);

    const before = await req('GET', `/v1/oncall?entity_id=${shop}&at=${BEFORE}`, undefined, ann.key);
    expect(before.status, before.text).toBe(200);
    expect(before.body).toEqual({
      at: BEFORE,
      entity: { id: shop, name: 'SHOP-API', slug: 'shop-api', blueprint_slug: 'service' },
      on_call: [
        {
          path: {
            ownership: 'owned_by',
            team: { id: team.id, name: 'Shop' },
            schedule: { id: scheduleId, name: 'Payments rota' },
          },
          user: { id: bob.userId, name: 'New Member', email: bob.email },
          layer: { id: expect.stringMatching(/^lyr_/), name: 'Everyone' },
          override_id: null,
          until: HANDOFF,
          note: null,
        },
      ],
      note: null,
    });
    const after = await req('GET', `/v1/oncall?entity_id=${shop}&at=${AFTER}`);
    expect(after.body.on_call[0].user.id).toBe(ann.userId);
    // No `at`: now, the fake clock's (bob's day).
    const now = await req('GET', `/v1/oncall?entity_id=${shop}`);
    expect(now.body.at).toBe(BEFORE);
    expect(now.body.on_call[0].user.id).toBe(bob.userId);
    // By team and by schedule, the same person, the path shorter.
    const byTeam = await req('GET', `/v1/oncall?team_id=${team.id}&at=${AFTER}`);
    expect(byTeam.body.on_call[0]).toMatchObject({
      path: { ownership: null, team: { id: team.id } },
      user: { id: ann.userId },
    });
    const bySchedule = await req('GET', `/v1/oncall?schedule_id=${scheduleId}&at=${AFTER}`);
    expect(bySchedule.body.on_call[0]).toMatchObject({
      path: { ownership: null, team: null, schedule: { id: scheduleId } },
      user: { id: ann.userId },
    });

    // The database has no owner until a team owns its blueprint by default; an owned_by relation wins over that.
    const unowned = await req('GET', `/v1/oncall?entity_id=${db}`);
    expect(unowned.status).toBe(200);
    expect(unowned.body.on_call).toEqual([]);
    expect(unowned.body.note).toContain('"SHOP-DB" has no owning team');
    const dba = (await req('POST', '/v1/teams', { name: 'DBA', default_owner_of: ['database'] })).body;
    const byDefault = await req('GET', `/v1/oncall?entity_id=${db}`);
    expect(byDefault.body.on_call).toEqual([
      {
        path: { ownership: 'blueprint_default', team: { id: dba.id, name: 'DBA' }, schedule: null },
        user: null,
        layer: null,
        override_id: null,
        until: null,
        note: 'Team "DBA" has no on-call schedule.',
      },
    ]);
    // An owned_by relation to a team wins over the blueprint's default owner.
    const dbOwned = await req('POST', `/v1/teams/${team.id}/entities`, { entity_id: db });
    const explicit = await req('GET', `/v1/oncall?entity_id=${db}&at=${AFTER}`);
    expect(
      explicit.body.on_call.map((r: { path: { ownership: string; team: { id: string } } }) => r.path),
    ).toEqual([
      {
        ownership: 'owned_by',
        team: { id: team.id, name: 'Shop' },
        schedule: { id: scheduleId, name: 'Payments rota' },
      },
    ]);
    expect((await req('DELETE', `/v1/relations/${dbOwned.body.id}`)).status).toBe(204);
    expect((await req('GET', `/v1/oncall?entity_id=${db}`)).body.on_call[0].path.ownership).toBe(
      'blueprint_default',
    );
    const second = await req('POST', '/v1/teams', { name: 'DBA 2', default_owner_of: ['database'] });
    expect(second.status).toBe(400);
    expect(second.body.details[0].message).toContain('"DBA"');

    // Ownership ends: by the team's route, or with the team.
    expect((await req('DELETE', `/v1/teams/${team.id}/entities/${shop}`)).status).toBe(204);
    expect((await req('DELETE', `/v1/teams/${team.id}/entities/${shop}`)).status).toBe(404);
    expect((await req('GET', `/v1/oncall?entity_id=${shop}`)).body.on_call).toEqual([]);
    await req('POST', `/v1/teams/${team.id}/entities`, { entity_id: shop });
    expect((await req('DELETE', `/v1/teams/${team.id}`)).status).toBe(204);
    expect((await req('GET', `/v1/oncall?entity_id=${shop}`)).body.on_call).toEqual([]);
    expect((await req('GET', `/v1/relations?entity_id=${shop}`)).body).toHaveLength(1);
  });

  it('refuses an unknown entity and two subjects, answers for every team, and hides another tenant’s team', async () => {
    const unknown = await req('GET', '/v1/oncall?entity_id=ent_01J00000000000000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toContain('entity');
    const two = await req(
      'GET',
      `/v1/oncall?team_id=team_01J00000000000000000000000&schedule_id=${scheduleId}`,
    );
    expect(two.status).toBe(400);
    expect(two.body.details[0].message).toBe('Give at most one of entity_id, team_id and schedule_id.');
    expect((await req('GET', `/v1/oncall?schedule_id=${scheduleId}&at=tomorrow`)).status).toBe(400);

    const team = (await req('POST', '/v1/teams', { name: 'Mine', schedule_id: scheduleId })).body;
    const shop = await entityOf('service', 'mine-api');
    const other = await api.createTenant('Other');
    // No subject: every team of the account; none for a new account, said so.
    const everyTeam = await req('GET', `/v1/oncall?at=${AFTER}`, undefined, ann.key);
    expect(everyTeam.status, everyTeam.text).toBe(200);
    expect(everyTeam.body.on_call.map((r: { path: { team: { id: string } } }) => r.path.team.id)).toContain(
      team.id,
    );
    expect(
      everyTeam.body.on_call.find((r: { path: { team: { id: string } } }) => r.path.team.id === team.id),
    ).toMatchObject({
      path: { ownership: null, schedule: { id: scheduleId } },
      user: { id: ann.userId },
    });
    expect((await req('GET', '/v1/oncall', undefined, other.key)).body).toMatchObject({
      on_call: [],
      note: 'This account has no teams yet.',
    });
    expect((await req('GET', `/v1/teams/${team.id}`, undefined, other.key)).status).toBe(404);
    expect((await req('PUT', `/v1/teams/${team.id}`, { name: 'Theirs' }, other.key)).status).toBe(404);
    expect((await req('DELETE', `/v1/teams/${team.id}`, undefined, other.key)).status).toBe(404);
    expect((await req('GET', `/v1/oncall?team_id=${team.id}`, undefined, other.key)).status).toBe(404);
    expect((await req('GET', `/v1/oncall?entity_id=${shop}`, undefined, other.key)).status).toBe(404);
    expect((await req('GET', `/v1/oncall?schedule_id=${scheduleId}`, undefined, other.key)).status).toBe(404);
    expect((await req('GET', '/v1/teams', undefined, other.key)).body.teams).toEqual([]);
    const theirs = await api.request('POST', `/v1/teams/${team.id}/entities`, {
      key: other.key,
      body: { entity_id: shop },
    });
    expect(theirs.status).toBe(404);
  });
});
