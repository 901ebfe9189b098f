import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';

const fields = [
  { name: 'owner', field_type: 'string', required: true, sort_order: 1 },
  { name: 'port', field_type: 'number', required: false, default_value: '443', sort_order: 2 },
  { name: 'public', field_type: 'boolean', required: false, sort_order: 3 },
  { name: 'docs', field_type: 'url', required: false, sort_order: 4 },
  { name: 'tags', field_type: 'array', required: false, default_value: '["prod"]', sort_order: 5 },
  { name: 'tier', field_type: 'string', required: true, default_value: 'bronze', sort_order: 6 },
];

const paths = (body: { details: { path: string }[] }) => body.details.map((d) => d.path).sort();

describe.each(runtimes)('entities ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  const call = (method: string, path: string, body?: unknown, key = api.adminKey) =>
    api.request(method, path, { key, body });
  const base = '/v1/blueprints/svc/entities';

  beforeAll(async () => {
    api = await start();
    const bp = await call('POST', '/v1/blueprints', { slug: 'svc', name: 'Service', fields });
    expect(bp.status).toBe(201);
  });
  afterAll(async () => {
    await api.close();
  });

  it('creates an entity with valid values, fills defaults and returns the documented record', async () => {
    const res = await call('POST', base, {
      slug: 'checkout',
      name: 'Checkout',
      fields: { owner: 'payments', public: true, docs: 'https://docs.example.com/checkout' },
    });
    expect(res.status).toBe(201);
    expect(res.body.id).toMatch(/^ent_/);
    expect(res.body).toMatchObject({
      blueprint_slug: 'svc',
      slug: 'checkout',
      name: 'Checkout',
      state: 'unknown',
    });
    expect(res.body.fields).toEqual({
      owner: 'payments',
      port: 443,
      public: true,
      docs: 'https://docs.example.com/checkout',
      tags: ['prod'],
      tier: 'bronze',
    });
    expect(Object.keys(res.body).sort()).toEqual(
      [
        'blueprint_slug',
        'created_at',
        'effective_state_rule',
        'fields',
        'id',
        'in_maintenance',
        'name',
        'slug',
        'state',
        'state_rule',
        'updated_at',
      ].sort(),
    );
    const read = await call('GET', `${base}/checkout`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(res.body);
    const list = await call('GET', base);
    expect(list.body.map((e: { slug: string }) => e.slug)).toContain('checkout');
  });

  it.each([
    ['an unknown field', { owner: 'a', colour: 'red' }, ['fields.colour']],
    ['a string where a number belongs', { owner: 'a', port: '80' }, ['fields.port']],
    ['a number where a string belongs', { owner: 7 }, ['fields.owner']],
    ['a string where a boolean belongs', { owner: 'a', public: 'yes' }, ['fields.public']],
    ['a relative URL', { owner: 'a', docs: '/docs' }, ['fields.docs']],
    ['a non-http URL', { owner: 'a', docs: 'ftp://files.example.com' }, ['fields.docs']],
    ['an array holding an object', { owner: 'a', tags: [{ k: 'v' }] }, ['fields.tags']],
    ['a missing required field', {}, ['fields.owner']],
    ['several problems at once', { port: true, extra: 1 }, ['fields.extra', 'fields.owner', 'fields.port']],
  ])('rejects %s with 400 VALIDATION_ERROR naming each field', async (_label, values, expected) => {
    const res = await call('POST', base, { slug: 'invalid', name: 'Invalid', fields: values });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(paths(res.body)).toEqual(expected);
    expect((await call('GET', `${base}/invalid`)).status).toBe(404);
  });

  it('rejects a bad slug and unknown body keys', async () => {
    const slug = await call('POST', base, { slug: '-bad', name: 'x', fields: { owner: 'a' } });
    expect(slug.status).toBe(400);
    expect(paths(slug.body)).toEqual(['slug']);
    const unknown = await call('POST', base, { slug: 'ok', name: 'x', fields: { owner: 'a' }, state: 'up' });
    expect(unknown.status).toBe(400);
    expect(paths(unknown.body)).toEqual(['state']);
  });

  it('answers 409 CONFLICT for a slug taken in the same blueprint, and allows it in another', async () => {
    await call('POST', base, { slug: 'twin', name: 'Twin', fields: { owner: 'a' } });
    const again = await call('POST', base, { slug: 'twin', name: 'Twin 2', fields: { owner: 'b' } });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('CONFLICT');
    await call('POST', '/v1/blueprints', { slug: 'db', name: 'Database' });
    const elsewhere = await call('POST', '/v1/blueprints/db/entities', { slug: 'twin', name: 'Twin DB' });
    expect(elsewhere.status).toBe(201);
    expect(elsewhere.body.fields).toEqual({});
  });

  it('updates with a JSON merge patch: given keys change, null removes, others stay', async () => {
    const created = await call('POST', base, {
      slug: 'patchme',
      name: 'Patch me',
      fields: { owner: 'web', public: false, docs: 'https://a.example', port: 8080 },
    });
    const res = await call('PUT', `${base}/patchme`, {
      name: 'Patched',
      fields: { public: true, docs: null, port: null, tags: ['a', 1] },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: created.body.id, slug: 'patchme', name: 'Patched' });
    expect(res.body.fields).toEqual({
      owner: 'web',
      port: 443,
      public: true,
      tags: ['a', 1],
      tier: 'bronze',
    });
    expect(res.body.updated_at >= created.body.updated_at).toBe(true);
    expect((await call('GET', `${base}/patchme`)).body).toEqual(res.body);

    const nameOnly = await call('PUT', `${base}/patchme`, { name: 'Renamed' });
    expect(nameOnly.body.fields).toEqual(res.body.fields);
  });

  it('rejects removing a required field, a bad value, a slug change and null name', async () => {
    await call('POST', base, { slug: 'strict', name: 'Strict', fields: { owner: 'web' } });
    const required = await call('PUT', `${base}/strict`, { fields: { owner: null, tier: null } });
    expect(required.status).toBe(400);
    expect(paths(required.body)).toEqual(['fields.owner', 'fields.tier']);
    const badValue = await call('PUT', `${base}/strict`, { fields: { port: 'eighty' } });
    expect(paths(badValue.body)).toEqual(['fields.port']);
    const slug = await call('PUT', `${base}/strict`, { slug: 'renamed' });
    expect(slug.status).toBe(400);
    expect(paths(slug.body)).toEqual(['slug']);
    const name = await call('PUT', `${base}/strict`, { name: null });
    expect(paths(name.body)).toEqual(['name']);
    expect((await call('GET', `${base}/strict`)).body.fields.owner).toBe('web');
  });

  it('keeps both changes when two merge patches race', async () => {
    await call('POST', base, { slug: 'racy', name: 'Racy', fields: { owner: 'x' } });
    const [a, b] = await Promise.all([
      call('PUT', `${base}/racy`, { fields: { port: 1 } }),
      call('PUT', `${base}/racy`, { fields: { public: true } }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const read = await call('GET', `${base}/racy`);
    expect(read.body.fields).toMatchObject({ port: 1, public: true });
  });

  it('deletes an entity with 204; it is gone at once', async () => {
    await call('POST', base, { slug: 'doomed', name: 'Doomed', fields: { owner: 'x' } });
    const del = await call('DELETE', `${base}/doomed`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect((await call('GET', `${base}/doomed`)).status).toBe(404);
    expect((await call('GET', base)).body.map((e: { slug: string }) => e.slug)).not.toContain('doomed');
    expect((await call('DELETE', `${base}/doomed`)).status).toBe(404);
    const again = await call('POST', base, { slug: 'doomed', name: 'Reborn', fields: { owner: 'y' } });
    expect(again.status).toBe(201);
  });

  it("answers 404 for another tenant's blueprints and entities", async () => {
    const other = await api.createTenant('Vandelay');
    await call('POST', base, { slug: 'mine', name: 'Mine', fields: { owner: 'x' } });
    for (const [method, path, body] of [
      ['GET', base, undefined],
      ['GET', `${base}/mine`, undefined],
      ['PUT', `${base}/mine`, { name: 'Stolen' }],
      ['DELETE', `${base}/mine`, undefined],
      ['POST', base, { slug: 'theirs', name: 'Theirs' }],
    ] as const) {
      const res = await call(method, path, body, other.key);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.code).toBe('NOT_FOUND');
    }
    expect((await call('GET', `${base}/mine`)).body.name).toBe('Mine');
  });

  it('answers 404 for an unknown blueprint', async () => {
    expect((await call('GET', '/v1/blueprints/ghost/entities')).status).toBe(404);
    expect((await call('POST', '/v1/blueprints/ghost/entities', { slug: 'a', name: 'A' })).status).toBe(404);
  });
});
