import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicBlueprintSchema } from '../../lib/catalog/api/responses.ts';
import { join } from '../auth/team-helpers.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { tally } from '../support/tally.ts';

describe.each(runtimes)('changing and deleting blueprints ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  const send = (method: string, path: string, body?: unknown, key = api.adminKey) =>
    api.request(method, path, { key, body });
  const get = (path: string, key = api.adminKey) => api.request('GET', path, { key });
  const defaults = async (key = api.adminKey) =>
    (await get('/v1/blueprints', key)).body
      .filter((bp: { is_default: boolean }) => bp.is_default)
      .map((bp: { slug: string }) => bp.slug);

  beforeAll(async () => {
    api = await start();
  });
  afterAll(async () => {
    await api.close();
  });

  it('changes name and description with PUT and keeps slug, fields and the default flag', async () => {
    const created = await send('POST', '/v1/blueprints', {
      slug: 'rename',
      name: 'Old',
      description: 'old text',
      fields: [{ name: 'owner', field_type: 'string' }],
    });
    const res = await send('PUT', '/v1/blueprints/rename', { name: 'New' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...created.body, name: 'New', updated_at: res.body.updated_at });
    expect(publicBlueprintSchema.safeParse(res.body).success).toBe(true);
    const again = await send('PUT', '/v1/blueprints/rename', { description: 'new text' });
    expect(again.body).toMatchObject({ name: 'New', description: 'new text', is_default: false });
    expect((await get('/v1/blueprints/rename')).body).toEqual(again.body);
  });

  it.each([
    ['a slug', { slug: 'other' }, 'slug'],
    ['fields', { fields: [] }, 'fields'],
    ['an unknown attribute', { colour: 'red' }, 'colour'],
    ['an empty name', { name: '  ' }, 'name'],
    ['a default flag that is not a boolean', { is_default: 'yes' }, 'is_default'],
  ])('rejects a PUT body with %s with 400 VALIDATION_ERROR naming it', async (_label, body, path) => {
    await send('POST', '/v1/blueprints', { slug: 'strict', name: 'Strict' });
    const res = await send('PUT', '/v1/blueprints/strict', body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
    expect((await get('/v1/blueprints/strict')).body).toMatchObject({ slug: 'strict', name: 'Strict' });
  });

  it('moves the default with PUT is_default: true and clears it with false', async () => {
    const tenant = await api.createTenant('Defaults');
    const key = tenant.key;
    await send('POST', '/v1/blueprints', { slug: 'a', name: 'A', is_default: true }, key);
    await send('POST', '/v1/blueprints', { slug: 'b', name: 'B' }, key);
    const moved = await send('PUT', '/v1/blueprints/b', { is_default: true }, key);
    expect(moved.status).toBe(200);
    expect(moved.body.is_default).toBe(true);
    expect(await defaults(key)).toEqual(['b']);

    const cleared = await send('PUT', '/v1/blueprints/b', { is_default: false }, key);
    expect(cleared.body.is_default).toBe(false);
    expect(await defaults(key)).toEqual([]);

    // With no default left, both a PUT and a create can set one again.
    expect((await send('PUT', '/v1/blueprints/a', { is_default: true }, key)).status).toBe(200);
    expect(
      (await send('POST', '/v1/blueprints', { slug: 'c', name: 'C', is_default: true }, key)).status,
    ).toBe(201);
    expect(await defaults(key)).toEqual(['c']);
    expect((await send('PUT', '/v1/blueprints/c', { is_default: true }, key)).body.is_default).toBe(true);
    expect(await defaults(key)).toEqual(['c']);
  });

  it('leaves exactly one default when several blueprints are made default concurrently', async () => {
    const tenant = await api.createTenant('Racing defaults');
    const slugs = ['r1', 'r2', 'r3', 'r4', 'r5'];
    for (const slug of slugs) await send('POST', '/v1/blueprints', { slug, name: slug }, tenant.key);
    const results = await Promise.all(
      slugs.map((slug) => send('PUT', `/v1/blueprints/${slug}`, { is_default: true }, tenant.key)),
    );
    expect(results.map((r) => r.status)).toEqual(slugs.map(() => 200));
    expect(await defaults(tenant.key)).toHaveLength(1);
  });

  it('deletes a blueprint with 204; its slug and its plan slot are free again', async () => {
    const tenant = await api.createTenant('One slot');
    await api.operator(['tenant', 'limits', tenant.tenantId, '--blueprint-limit', '1']);
    const first = await send(
      'POST',
      '/v1/blueprints',
      { slug: 'gone', name: 'Gone', fields: [{ name: 'old', field_type: 'string' }] },
      tenant.key,
    );
    const res = await send('DELETE', '/v1/blueprints/gone', undefined, tenant.key);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await get('/v1/blueprints/gone', tenant.key)).status).toBe(404);
    expect((await get('/v1/blueprints', tenant.key)).body).toEqual([]);
    expect((await send('DELETE', '/v1/blueprints/gone', undefined, tenant.key)).status).toBe(404);

    const reused = await send('POST', '/v1/blueprints', { slug: 'gone', name: 'Again' }, tenant.key);
    expect(reused.status).toBe(201);
    expect(reused.body.id).not.toBe(first.body.id);
    expect(reused.body.fields).toEqual([]);
  });

  it('answers 409 CONFLICT while the blueprint holds entities, and deletes it once they are gone', async () => {
    await send('POST', '/v1/blueprints', { slug: 'busy', name: 'Busy' });
    await send('POST', '/v1/blueprints/busy/entities', { slug: 'e1', name: 'E1' });
    await send('POST', '/v1/blueprints/busy/entities', { slug: 'e2', name: 'E2' });
    const refused = await send('DELETE', '/v1/blueprints/busy');
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('CONFLICT');
    expect(refused.body.error).toBe("blueprint 'busy' still holds 2 entities; delete them first");
    await send('DELETE', '/v1/blueprints/busy/entities/e1');
    expect((await send('DELETE', '/v1/blueprints/busy')).body.error).toContain('still holds 1 entity;');
    expect((await get('/v1/blueprints/busy/entities/e2')).status).toBe(200);

    expect((await send('DELETE', '/v1/blueprints/busy/entities/e2')).status).toBe(204);
    expect((await send('DELETE', '/v1/blueprints/busy')).status).toBe(204);
    expect((await get('/v1/blueprints/busy/entities')).status).toBe(404);
  });

  it('never leaves an entity behind in a deleted blueprint when creates race the delete', async () => {
    const tenant = await api.createTenant('Racing deletes');
    for (let round = 0; round < 4; round += 1) {
      const slug = `race-${round}`;
      await send('POST', '/v1/blueprints', { slug, name: slug }, tenant.key);
      const [removed, ...creates] = await Promise.all([
        send('DELETE', `/v1/blueprints/${slug}`, undefined, tenant.key),
        ...[1, 2, 3].map((i) =>
          send('POST', `/v1/blueprints/${slug}/entities`, { slug: `e${i}`, name: 'E' }, tenant.key),
        ),
      ]);
      const made = creates.filter((r) => r.status === 201).length;
      if (removed?.status === 204) {
        // Every create that lost the race was refused; none landed before the delete.
        expect(made).toBe(0);
        expect(tally(creates.map((r) => r.status))).toEqual({ 404: 3 });
        expect((await send('POST', '/v1/blueprints', { slug, name: 'Again' }, tenant.key)).status).toBe(201);
        expect((await get(`/v1/blueprints/${slug}/entities`, tenant.key)).body).toEqual([]);
      } else {
        expect(removed?.status).toBe(409);
        expect(made).toBeGreaterThan(0);
        expect((await get(`/v1/blueprints/${slug}/entities`, tenant.key)).body).toHaveLength(made);
      }
    }
  });

  it('clears the default when the default blueprint is deleted', async () => {
    const tenant = await api.createTenant('Default deleted');
    await send('POST', '/v1/blueprints', { slug: 'main', name: 'Main', is_default: true }, tenant.key);
    await send('POST', '/v1/blueprints', { slug: 'side', name: 'Side' }, tenant.key);
    expect((await send('DELETE', '/v1/blueprints/main', undefined, tenant.key)).status).toBe(204);
    expect(await defaults(tenant.key)).toEqual([]);
    expect((await send('PUT', '/v1/blueprints/side', { is_default: true }, tenant.key)).status).toBe(200);
    await send('POST', '/v1/blueprints', { slug: 'main', name: 'Main again' }, tenant.key);
    expect(await defaults(tenant.key)).toEqual(['side']);
  });

  it("answers 404 to another tenant's blueprint and to unknown slugs, changing nothing", async () => {
    const other = await api.createTenant('Hooli');
    await send('POST', '/v1/blueprints', { slug: 'mine', name: 'Mine', is_default: true });
    expect((await send('PUT', '/v1/blueprints/mine', { name: 'Theirs' }, other.key)).status).toBe(404);
    const removed = await send('DELETE', '/v1/blueprints/mine', undefined, other.key);
    expect(removed.status).toBe(404);
    expect(removed.body.code).toBe('NOT_FOUND');
    expect((await get('/v1/blueprints/mine')).body).toMatchObject({ name: 'Mine', is_default: true });
    expect((await send('PUT', '/v1/blueprints/nope', { name: 'x' })).status).toBe(404);
    expect((await send('DELETE', '/v1/blueprints/Not_A_Slug')).status).toBe(404);
  });

  it('refuses a read-only key with 403 READ_ONLY and lets a member change and delete blueprints', async () => {
    await send('POST', '/v1/blueprints', { slug: 'team', name: 'Team' });
    const readOnly = (await send('POST', '/v1/auth/keys', { label: 'ro', is_read_only: true })).body.key;
    for (const res of [
      await send('PUT', '/v1/blueprints/team', { name: 'RO' }, readOnly),
      await send('DELETE', '/v1/blueprints/team', undefined, readOnly),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('READ_ONLY');
    }
    const member: string = (await join(api, api.adminKey, { email: 'member@example.com' })).key;
    expect((await send('PUT', '/v1/blueprints/team', { name: 'By member' }, member)).body.name).toBe(
      'By member',
    );
    expect((await send('DELETE', '/v1/blueprints/team', undefined, member)).status).toBe(204);
  });
});
