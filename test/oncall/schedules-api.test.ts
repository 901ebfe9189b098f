import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { type Joined, join, userIdOf } from '../auth/team-helpers.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { berlinTwoLayerRota } from './support/rotas.ts';

/**
 * /v1/schedules: admins create, replace and delete schedules; everyone reads them and asks who is
 * on call now, at an instant or over a window (a two-layer rota in Europe/Berlin across the spring
 * DST change); members override only themselves, admins anyone; members named must belong to the
 * account; another tenant's schedule is 404; read-only keys read only.
 */

const T0 = Date.parse('2026-03-28T12:00:00.000Z');

describe.each(runtimes)('on-call schedules ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let admin = '';
  let ann: Joined;
  let bob: Joined;
  const clock = createFakeClock(T0);
  const req = (method: string, path: string, body?: unknown, key = api.adminKey) =>
    api.request(method, path, { key, body });

  const rota = () => berlinTwoLayerRota({ daily: [ann.userId, bob.userId], office: admin });

  beforeAll(async () => {
    api = await start({ clock });
    admin = await userIdOf(api, api.adminKey);
    ann = await join(api, api.adminKey, { role: 'member' });
    bob = await join(api, api.adminKey, { role: 'member' });
  });
  afterAll(async () => api?.close());

  it('creates a schedule and answers who is on call now, at an instant and over a window across DST', async () => {
    const made = await req('POST', '/v1/schedules', rota());
    expect(made.status, made.text).toBe(201);
    expect(made.body.layers[0].members.map((m: { id: string }) => m.id)).toEqual([ann.userId, bob.userId]);
    expect(made.body.layers[0].members[0].email).toBe(ann.email);
    expect(made.body.layers[0].id).toMatch(/^lyr_/);
    const id = made.body.id;

    // Saturday 28 March 13:00 CET: the office layer is off; bob holds the 09:00 handoff of the 28th.
    const now = await req('GET', `/v1/schedules/${id}/oncall`, undefined, ann.key);
    expect(now.status, now.text).toBe(200);
    expect(now.body).toMatchObject({
      at: '2026-03-28T12:00:00.000Z',
      user: { id: bob.userId, email: bob.email },
      layer: { name: 'Everyone' },
      override_id: null,
      // Sunday 09:00 CEST, after the spring change: 07:00Z, 23 hours after the last handoff.
      until: '2026-03-29T07:00:00.000Z',
    });

    const monday = await req('GET', `/v1/schedules/${id}/oncall?at=2026-03-30T08:00:00Z`);
    expect(monday.body).toMatchObject({
      user: { id: admin },
      layer: { name: 'Office hours' },
      until: '2026-03-30T15:00:00.000Z',
    });

    const window = await req(
      'GET',
      `/v1/schedules/${id}/oncall?from=2026-03-28T08:00:00Z&to=2026-03-30T16:00:00Z`,
    );
    expect(window.status, window.text).toBe(200);
    expect(
      window.body.shifts.map((s: { user: { id: string }; start: string; end: string }) => [
        s.user.id,
        s.start,
        s.end,
      ]),
    ).toEqual([
      [bob.userId, '2026-03-28T08:00:00.000Z', '2026-03-29T07:00:00.000Z'],
      [ann.userId, '2026-03-29T07:00:00.000Z', '2026-03-30T07:00:00.000Z'],
      [admin, '2026-03-30T07:00:00.000Z', '2026-03-30T15:00:00.000Z'],
      [bob.userId, '2026-03-30T15:00:00.000Z', '2026-03-30T16:00:00.000Z'],
    ]);
    // Each layer's own shifts, what the final schedule is made of (the console's timeline).
    const layerRows = (
      window.body.layers as { name: string; shifts: { user: { id: string }; start: string; end: string }[] }[]
    ).map((l) => [l.name, l.shifts.map((s) => [s.user.id, s.start, s.end])]);
    expect(layerRows).toEqual([
      [
        'Everyone',
        [
          [bob.userId, '2026-03-28T08:00:00.000Z', '2026-03-29T07:00:00.000Z'],
          [ann.userId, '2026-03-29T07:00:00.000Z', '2026-03-30T07:00:00.000Z'],
          [bob.userId, '2026-03-30T07:00:00.000Z', '2026-03-30T16:00:00.000Z'],
        ],
      ],
      ['Office hours', [[admin, '2026-03-30T07:00:00.000Z', '2026-03-30T15:00:00.000Z']]],
    ]);
  });

  it('lets a member override only themselves, an admin anyone, and removes overrides by the same rule', async () => {
    const id = (await req('POST', '/v1/schedules', rota())).body.id;
    const span = { starts_at: '2026-03-28T12:00:00Z', ends_at: '2026-03-28T18:00:00Z' };
    const forBob = await req(
      'POST',
      `/v1/schedules/${id}/overrides`,
      { user_id: bob.userId, ...span },
      ann.key,
    );
    expect(forBob.status, forBob.text).toBe(403);
    const mine = await req(
      'POST',
      `/v1/schedules/${id}/overrides`,
      { user_id: ann.userId, ...span },
      ann.key,
    );
    expect(mine.status, mine.text).toBe(201);
    const override = mine.body.overrides[0];
    expect(override).toMatchObject({ user: { id: ann.userId }, starts_at: span.starts_at });
    const now = await req('GET', `/v1/schedules/${id}/oncall`);
    expect(now.body).toMatchObject({
      user: { id: ann.userId },
      layer: null,
      override_id: override.id,
      until: '2026-03-28T18:00:00.000Z',
    });

    expect(
      (await req('DELETE', `/v1/schedules/${id}/overrides/${override.id}`, undefined, bob.key)).status,
    ).toBe(403);
    expect(
      (await req('DELETE', `/v1/schedules/${id}/overrides/${override.id}`, undefined, ann.key)).status,
    ).toBe(204);
    expect((await req('GET', `/v1/schedules/${id}/oncall`)).body.user.id).toBe(bob.userId);
    const byAdmin = await req('POST', `/v1/schedules/${id}/overrides`, { user_id: bob.userId, ...span });
    expect(byAdmin.status, byAdmin.text).toBe(201);
  });

  it('keeps schedule writes to admins, reads to everyone, and names a stranger or a bad rota by field', async () => {
    expect((await req('POST', '/v1/schedules', rota(), ann.key)).status).toBe(403);
    const readOnly = (await req('POST', '/v1/auth/keys', { label: 'viewer', is_read_only: true })).body.key;
    expect((await req('POST', '/v1/schedules', rota(), readOnly)).status).toBe(403);
    expect((await req('GET', '/v1/schedules', undefined, readOnly)).status).toBe(200);

    const [everyone, office] = rota().layers;
    const stranger = {
      ...rota(),
      layers: [{ ...everyone, members: [ann.userId, 'usr_01J00000000000000000000000'] }, office],
    };
    const refused = await req('POST', '/v1/schedules', stranger);
    expect(refused.status).toBe(400);
    expect(refused.body.details).toEqual([
      { path: 'layers.0.members.1', message: 'No member of this account has this id.' },
    ]);

    const badZone = await req('POST', '/v1/schedules', { ...rota(), time_zone: 'Mars/Olympus' });
    expect(badZone.status).toBe(400);
    expect(badZone.body.details[0].path).toBe('time_zone');
    const id = (await req('POST', '/v1/schedules', rota())).body.id;
    const tooLong = await req(
      'GET',
      `/v1/schedules/${id}/oncall?from=2026-01-01T00:00:00Z&to=2026-06-01T00:00:00Z`,
    );
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.details[0].path).toBe('to');
    const both = await req(
      'GET',
      `/v1/schedules/${id}/oncall?at=2026-01-01T00:00:00Z&from=2026-01-01T00:00:00Z`,
    );
    expect(both.status).toBe(400);
  });

  it('replaces layers keeping their ids and the overrides, deletes, and hides schedules from other tenants', async () => {
    const made = (await req('POST', '/v1/schedules', rota())).body;
    await req('POST', `/v1/schedules/${made.id}/overrides`, {
      user_id: admin,
      starts_at: '2026-04-01T00:00:00Z',
      ends_at: '2026-04-02T00:00:00Z',
    });
    const next = rota();
    const kept = { ...next.layers[0], id: made.layers[0].id, name: 'Everyone (renamed)' };
    const replaced = await req('PUT', `/v1/schedules/${made.id}`, { ...next, layers: [kept] });
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.body.layers.map((l: { id: string; name: string }) => [l.id, l.name])).toEqual([
      [made.layers[0].id, 'Everyone (renamed)'],
    ]);
    expect(replaced.body.overrides).toHaveLength(1);

    const other = await api.createTenant('Other');
    expect((await req('GET', `/v1/schedules/${made.id}`, undefined, other.key)).status).toBe(404);
    expect((await req('GET', `/v1/schedules/${made.id}/oncall`, undefined, other.key)).status).toBe(404);
    expect((await req('DELETE', `/v1/schedules/${made.id}`, undefined, other.key)).status).toBe(404);
    expect((await req('DELETE', `/v1/schedules/${made.id}`)).status).toBe(204);
    expect((await req('GET', `/v1/schedules/${made.id}`)).status).toBe(404);
  });
});
