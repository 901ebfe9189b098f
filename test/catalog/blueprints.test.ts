import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';

const everyType = [
  { name: 'owner', field_type: 'string', required: true, sort_order: 1 },
  { name: 'port', field_type: 'number', required: false, default_value: '443', sort_order: 2 },
  { name: 'public', field_type: 'boolean', required: false, default_value: 'false', sort_order: 3 },
  { name: 'docs', field_type: 'url', required: false, sort_order: 4 },
  { name: 'tags', field_type: 'array', required: false, default_value: '["prod"]', sort_order: 0 },
];

describe.each(runtimes)('blueprints ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  const post = (path: string, body: unknown, key = api.adminKey) => api.request('POST', path, { key, body });
  const get = (path: string, key = api.adminKey) => api.request('GET', path, { key });

  beforeAll(async () => {
    api = await start();
  });
  afterAll(async () => {
    await api.close();
  });

  it('creates a blueprint with one field of each type and returns fields in sort_order', async () => {
    const res = await post('/v1/blueprints', {
      slug: 'service',
      name: 'Service',
      description: 'A deployable service',
      fields: everyType,
    });
    expect(res.status).toBe(201);
    expect(res.body.id).toMatch(/^bp_/);
    expect(res.body).toMatchObject({ slug: 'service', name: 'Service', is_default: false });
    expect(res.body.fields.map((f: { name: string }) => f.name)).toEqual([
      'tags',
      'owner',
      'port',
      'public',
      'docs',
    ]);
    expect(res.body.fields[0]).toEqual(everyType[4]);
    expect(Object.keys(res.body).sort()).toEqual(
      [
        'created_at',
        'description',
        'entity_count',
        'fields',
        'id',
        'is_default',
        'name',
        'slug',
        'state_rule',
        'updated_at',
      ].sort(),
    );

    const read = await get('/v1/blueprints/service');
    expect(read.status).toBe(200);
    expect(read.body).toEqual(res.body);
    const list = await get('/v1/blueprints');
    expect(list.body.map((bp: { slug: string }) => bp.slug)).toContain('service');
  });

  it("answers each blueprint's entity_count, kept by entity creates and deletes", async () => {
    expect((await post('/v1/blueprints', { slug: 'counted', name: 'Counted' })).body.entity_count).toBe(0);
    for (const slug of ['one', 'two']) {
      expect((await post('/v1/blueprints/counted/entities', { slug, name: slug })).status).toBe(201);
    }
    expect((await get('/v1/blueprints/counted')).body.entity_count).toBe(2);
    const removed = await api.request('DELETE', '/v1/blueprints/counted/entities/one', { key: api.adminKey });
    expect(removed.status).toBe(204);
    const list = await get('/v1/blueprints');
    const counted = list.body.find((b: { slug: string }) => b.slug === 'counted');
    expect(counted.entity_count).toBe(1);
  });

  it('defaults description, fields, required, sort_order and is_default', async () => {
    const res = await post('/v1/blueprints', {
      slug: 'bare',
      name: 'Bare',
      fields: [{ name: 'x', field_type: 'string' }],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      description: '',
      is_default: false,
      fields: [{ name: 'x', field_type: 'string', required: false, sort_order: 0 }],
    });
  });

  it('answers 409 CONFLICT for a duplicate slug', async () => {
    await post('/v1/blueprints', { slug: 'dup', name: 'One' });
    const res = await post('/v1/blueprints', { slug: 'dup', name: 'Two' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('CONFLICT');
    expect((await get('/v1/blueprints/dup')).body.name).toBe('One');
  });

  it.each([
    ['a bad slug', { slug: 'Not_OK', name: 'x' }, 'slug'],
    ['an unknown body field', { slug: 'ok', name: 'x', colour: 'red' }, 'colour'],
    [
      'an unknown field type',
      { slug: 'ok', name: 'x', fields: [{ name: 'a', field_type: 'date' }] },
      'fields.0.field_type',
    ],
    [
      'a default that is not a number',
      { slug: 'ok', name: 'x', fields: [{ name: 'n', field_type: 'number', default_value: 'ten' }] },
      'fields.0.default_value',
    ],
    [
      'a default that is not a boolean',
      { slug: 'ok', name: 'x', fields: [{ name: 'b', field_type: 'boolean', default_value: 'yes' }] },
      'fields.0.default_value',
    ],
    [
      'a default that is not an http(s) URL',
      { slug: 'ok', name: 'x', fields: [{ name: 'u', field_type: 'url', default_value: 'ftp://x' }] },
      'fields.0.default_value',
    ],
    [
      'a default that is not a JSON array of scalars',
      { slug: 'ok', name: 'x', fields: [{ name: 'a', field_type: 'array', default_value: '[{"a":1}]' }] },
      'fields.0.default_value',
    ],
    [
      'duplicate field names',
      {
        slug: 'ok',
        name: 'x',
        fields: [
          { name: 'a', field_type: 'string' },
          { name: 'a', field_type: 'number' },
        ],
      },
      'fields.1.name',
    ],
  ])('rejects %s with 400 VALIDATION_ERROR naming the path', async (_label, body, path) => {
    const res = await post('/v1/blueprints', body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
    expect((await get('/v1/blueprints/ok')).status).toBe(404);
  });

  it('moves is_default to the newest default blueprint', async () => {
    const first = await post('/v1/blueprints', { slug: 'default-a', name: 'A', is_default: true });
    expect(first.body.is_default).toBe(true);
    const second = await post('/v1/blueprints', { slug: 'default-b', name: 'B', is_default: true });
    expect(second.body.is_default).toBe(true);
    expect((await get('/v1/blueprints/default-a')).body.is_default).toBe(false);
    const defaults = (await get('/v1/blueprints')).body.filter(
      (bp: { is_default: boolean }) => bp.is_default,
    );
    expect(defaults.map((bp: { slug: string }) => bp.slug)).toEqual(['default-b']);
  });

  it('leaves exactly one default when default blueprints are created concurrently', async () => {
    const slugs = ['race-d1', 'race-d2', 'race-d3', 'race-d4', 'race-d5'];
    const results = await Promise.all(
      slugs.map((slug) => post('/v1/blueprints', { slug, name: slug, is_default: true })),
    );
    expect(results.map((r) => r.status)).toEqual(slugs.map(() => 201));
    const defaults = (await get('/v1/blueprints')).body.filter(
      (bp: { is_default: boolean }) => bp.is_default,
    );
    expect(defaults).toHaveLength(1);
  });

  it('adds a field with POST /fields and answers 409 for a name already taken', async () => {
    await post('/v1/blueprints', {
      slug: 'grow',
      name: 'Grow',
      fields: [{ name: 'a', field_type: 'string' }],
    });
    const res = await post('/v1/blueprints/grow/fields', { name: 'b', field_type: 'number', sort_order: -1 });
    expect(res.status).toBe(201);
    expect(res.body.fields.map((f: { name: string }) => f.name)).toEqual(['b', 'a']);
    const again = await post('/v1/blueprints/grow/fields', { name: 'a', field_type: 'number' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('CONFLICT');
    const bad = await post('/v1/blueprints/grow/fields', {
      name: 'c',
      field_type: 'number',
      default_value: 'x',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].path).toBe('default_value');
  });

  it('keeps every field when fields are added concurrently', async () => {
    await post('/v1/blueprints', { slug: 'race', name: 'Race' });
    const names = Array.from({ length: 8 }, (_, i) => `f${i}`);
    const results = await Promise.all(
      names.map((name) => post('/v1/blueprints/race/fields', { name, field_type: 'string' })),
    );
    expect(results.map((r) => r.status)).toEqual(names.map(() => 201));
    const fields = (await get('/v1/blueprints/race')).body.fields.map((f: { name: string }) => f.name);
    expect(fields.sort()).toEqual(names);
  });

  it('adds a required field without default only while the blueprint has no entities', async () => {
    await post('/v1/blueprints', { slug: 'req', name: 'Req' });
    const empty = await post('/v1/blueprints/req/fields', {
      name: 'owner',
      field_type: 'string',
      required: true,
    });
    expect(empty.status).toBe(201);
    await post('/v1/blueprints/req/entities', { slug: 'e1', name: 'E1', fields: { owner: 'ops' } });

    const noDefault = await post('/v1/blueprints/req/fields', {
      name: 'team',
      field_type: 'string',
      required: true,
    });
    expect(noDefault.status).toBe(400);
    expect(noDefault.body.code).toBe('VALIDATION_ERROR');
    expect(noDefault.body.details[0].path).toBe('default_value');

    const withDefault = await post('/v1/blueprints/req/fields', {
      name: 'tier',
      field_type: 'number',
      required: true,
      default_value: '3',
    });
    expect(withDefault.status).toBe(201);
    const entity = await get('/v1/blueprints/req/entities/e1');
    expect(entity.body.fields).toEqual({ owner: 'ops', tier: 3 });
  });

  it("answers 404 for unknown slugs and another tenant's blueprints", async () => {
    const other = await api.createTenant('Hooli');
    await post('/v1/blueprints', { slug: 'private', name: 'Private' });
    expect((await get('/v1/blueprints/private', other.key)).status).toBe(404);
    expect((await get('/v1/blueprints/nope')).body.code).toBe('NOT_FOUND');
    expect(
      (await post('/v1/blueprints/private/fields', { name: 'x', field_type: 'string' }, other.key)).status,
    ).toBe(404);
    expect((await get('/v1/blueprints', other.key)).body).toEqual([]);
    const own = await post('/v1/blueprints', { slug: 'private', name: 'Theirs' }, other.key);
    expect(own.status).toBe(201);
  });

  it('lets a read-only key read blueprints and refuses it writes', async () => {
    const created = await post('/v1/auth/keys', { label: 'ro', is_read_only: true });
    const readOnly: string = created.body.key;
    expect((await get('/v1/blueprints', readOnly)).status).toBe(200);
    const write = await post('/v1/blueprints', { slug: 'ro', name: 'RO' }, readOnly);
    expect(write.status).toBe(403);
    expect(write.body.code).toBe('READ_ONLY');
  });
});
