import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { join } from '../auth/team-helpers.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';

const START = Date.parse('2026-03-01T00:00:00.000Z');

describe.each(runtimes)('the Locations API ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  const clock = createFakeClock(START);

  beforeAll(async () => {
    api = await start({ clock });
  });
  afterAll(async () => {
    await api?.close();
  });

  const create = (name: string, kind = 'agent', key = api.adminKey) =>
    api.request('POST', '/v1/locations', { key, body: { name, kind } });
  const list = async (key = api.adminKey) => {
    const res = await api.request('GET', '/v1/locations', { key });
    expect(res.status).toBe(200);
    return res.body.locations as Array<Record<string, unknown>>;
  };
  const beat = (key: string, version = '1.2.3') =>
    api.request('POST', '/v1/agent/heartbeat', { key, body: { version } });

  it('lists default, the runtime itself, online, with no location created', async () => {
    const { key } = await api.createTenant('Only default');

    const locations = await list(key);

    expect(locations).toEqual([
      {
        id: 'default',
        name: 'default',
        kind: 'runtime',
        state: 'online',
        last_seen_at: new Date(clock.now()).toISOString(),
        version: expect.any(String),
        created_at: expect.any(String),
      },
    ]);
  });

  it('creates a location with its key shown once, listed offline until its first heartbeat', async () => {
    const res = await create('office');

    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^loc_/),
      name: 'office',
      kind: 'agent',
      key_id: expect.stringMatching(/^lky_/),
      key: expect.stringMatching(/^vlk_[0-9A-Za-z]{40}$/),
    });
    const office = (await list()).find((l) => l.name === 'office');
    expect(office).toEqual({
      id: res.body.id,
      name: 'office',
      kind: 'agent',
      state: 'offline',
      last_seen_at: null,
      version: null,
      created_at: new Date(clock.now()).toISOString(),
    });
    expect(JSON.stringify(await list())).not.toContain(res.body.key);
    const keys = await api.request('GET', `/v1/locations/${res.body.id}/keys`, { key: api.adminKey });
    expect(keys.body).toEqual({
      keys: [{ id: res.body.key_id, prefix: res.body.key.slice(0, 12), created_at: expect.any(String) }],
    });
  });

  it('moves a location online with a heartbeat, and offline after 90 seconds without one', async () => {
    const { body: loc } = await create('eu-west-1', 'aws_region');

    const answer = await beat(loc.key, '0.9.0');
    const online = (await list()).find((l) => l.id === loc.id);
    clock.advance(91_000);
    const offline = (await list()).find((l) => l.id === loc.id);
    const again = await beat(loc.key, '0.9.0');
    const back = (await list()).find((l) => l.id === loc.id);

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      location: { id: loc.id, name: 'eu-west-1' },
      server_time: new Date(START).toISOString(),
    });
    expect(online).toMatchObject({ kind: 'aws_region', state: 'online', version: '0.9.0' });
    expect(online?.last_seen_at).toBe(new Date(START).toISOString());
    expect(offline).toMatchObject({ state: 'offline', last_seen_at: new Date(START).toISOString() });
    expect(again.status).toBe(200);
    expect(back).toMatchObject({ state: 'online', last_seen_at: new Date(clock.now()).toISOString() });
  });

  it('writes a new version at once, even within the heartbeat write interval', async () => {
    const { body: loc } = await create('rack-7');
    await beat(loc.key, '1.0.0');
    clock.advance(1000);

    await beat(loc.key, '1.1.0');

    expect((await list()).find((l) => l.id === loc.id)).toMatchObject({ version: '1.1.0', state: 'online' });
  });

  it('records a heartbeat at most every 30 seconds per process, the ones between only answered', async () => {
    const { body: loc } = await create('quiet');
    const seen = async () => (await list()).find((l) => l.id === loc.id)?.last_seen_at;
    const first = new Date(clock.now()).toISOString();
    await beat(loc.key);

    clock.advance(10_000);
    const between = await beat(loc.key);
    const afterBetween = await seen();
    clock.advance(20_000);
    await beat(loc.key);

    expect(between.body.server_time).toBe(new Date(clock.now() - 20_000).toISOString());
    expect(afterBetween).toBe(first);
    expect(await seen()).toBe(new Date(clock.now()).toISOString());
  });

  it('refuses a second location of the same name, and the name default, with 409', async () => {
    await create('lab');

    const again = await create('lab', 'aws_region');
    const reserved = await create('default');

    expect(again.status).toBe(409);
    expect(again.body.code).toBe('CONFLICT');
    expect(reserved.status).toBe(409);
    expect((await list()).filter((l) => l.name === 'lab')).toHaveLength(1);
  });

  it('refuses a key revoked a moment ago with 401, while the location’s other key goes on working', async () => {
    const { body: loc } = await create('branch');
    const second = await api.request('POST', `/v1/locations/${loc.id}/keys`, { key: api.adminKey });
    expect((await beat(loc.key)).status).toBe(200);

    const revoked = await api.request('DELETE', `/v1/locations/${loc.id}/keys/${loc.key_id}`, {
      key: api.adminKey,
    });
    const refused = await beat(loc.key);
    const other = await beat(second.body.key);

    expect(second.status).toBe(201);
    expect(second.body).toMatchObject({
      key_id: expect.stringMatching(/^lky_/),
      key: expect.stringMatching(/^vlk_/),
    });
    expect(revoked.status).toBe(204);
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('UNAUTHORIZED');
    expect(other.status).toBe(200);
    const keys = await api.request('GET', `/v1/locations/${loc.id}/keys`, { key: api.adminKey });
    expect(keys.body.keys.map((k: { id: string }) => k.id)).toEqual([second.body.key_id]);
    const twice = await api.request('DELETE', `/v1/locations/${loc.id}/keys/${loc.key_id}`, {
      key: api.adminKey,
    });
    expect(twice.status).toBe(404);
  });

  it('deletes a location with its keys: gone from the list, its keys refused', async () => {
    const { body: loc } = await create('old-dc');
    const second = await api.request('POST', `/v1/locations/${loc.id}/keys`, { key: api.adminKey });

    const deleted = await api.request('DELETE', `/v1/locations/${loc.id}`, { key: api.adminKey });

    expect(deleted.status).toBe(204);
    expect((await list()).map((l) => l.id)).not.toContain(loc.id);
    expect((await beat(loc.key)).status).toBe(401);
    expect((await beat(second.body.key)).status).toBe(401);
    expect((await create('old-dc')).status).toBe(201);
  });

  it('keeps at most 10 keys per location (403 LIMIT_EXCEEDED)', async () => {
    const { body: loc } = await create('many-keys');
    const added = [];
    for (let i = 0; i < 10; i += 1)
      added.push(await api.request('POST', `/v1/locations/${loc.id}/keys`, { key: api.adminKey }));

    expect(added.slice(0, 9).map((r) => r.status)).toEqual(Array(9).fill(201));
    expect(added[9]?.status).toBe(403);
    expect(added[9]?.body.code).toBe('LIMIT_EXCEEDED');
  });

  it('shows another tenant’s locations to nobody: 404 on its ids, absent from the list', async () => {
    const { body: loc } = await create('private');
    const other = await api.createTenant('Other');

    const answers = await Promise.all([
      api.request('GET', `/v1/locations/${loc.id}/keys`, { key: other.key }),
      api.request('POST', `/v1/locations/${loc.id}/keys`, { key: other.key }),
      api.request('DELETE', `/v1/locations/${loc.id}/keys/${loc.key_id}`, { key: other.key }),
      api.request('DELETE', `/v1/locations/${loc.id}`, { key: other.key }),
    ]);

    expect(answers.map((r) => r.status)).toEqual([404, 404, 404, 404]);
    expect((await list(other.key)).map((l) => l.name)).toEqual(['default']);
    expect((await beat(loc.key)).status).toBe(200);
  });

  it('lets a read-only key list locations and nothing more (403 READ_ONLY)', async () => {
    const { body: loc } = await create('read-only-target');
    const ro = await api.request('POST', '/v1/auth/keys', {
      key: api.adminKey,
      body: { label: 'viewer', is_read_only: true },
    });
    const key = ro.body.key;

    const answers = await Promise.all([
      create('sneaky', 'agent', key),
      api.request('POST', `/v1/locations/${loc.id}/keys`, { key }),
      api.request('GET', `/v1/locations/${loc.id}/keys`, { key }),
      api.request('DELETE', `/v1/locations/${loc.id}/keys/${loc.key_id}`, { key }),
      api.request('DELETE', `/v1/locations/${loc.id}`, { key }),
    ]);

    expect((await list(key)).map((l) => l.name)).toContain('read-only-target');
    expect(answers.map((r) => [r.status, r.body.code])).toEqual(Array(5).fill([403, 'READ_ONLY']));
  });
  it('lets a member list locations and leaves their keys to admins (403 FORBIDDEN)', async () => {
    const { body: loc } = await create('members-target');
    const member = await join(api, api.adminKey, { role: 'member' });

    const answers = await Promise.all([
      create('by-member', 'agent', member.key),
      api.request('POST', `/v1/locations/${loc.id}/keys`, { key: member.key }),
      api.request('GET', `/v1/locations/${loc.id}/keys`, { key: member.key }),
      api.request('DELETE', `/v1/locations/${loc.id}/keys/${loc.key_id}`, { key: member.key }),
      api.request('DELETE', `/v1/locations/${loc.id}`, { key: member.key }),
    ]);

    expect((await list(member.key)).map((l) => l.name)).toContain('members-target');
    expect(answers.map((r) => [r.status, r.body.code])).toEqual(Array(5).fill([403, 'FORBIDDEN']));
  });
});
