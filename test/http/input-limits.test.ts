import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';

/** A JSON text nesting `levels` objects: {"a":{"a":...1...}}. */
function nested(levels: number): string {
  return `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
}

describe.each(runtimes)('input limits ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  const call = (method: string, path: string, body?: unknown) =>
    api.request(method, path, { key: api.adminKey, body });
  const raw = (method: string, path: string, rawBody: string) =>
    api.request(method, path, {
      key: api.adminKey,
      rawBody,
      headers: { 'content-type': 'application/json' },
    });

  beforeAll(async () => {
    api = await start();
    const fields = [
      { name: 'owner', field_type: 'string' },
      { name: 'tags', field_type: 'array' },
      ...Array.from({ length: 20 }, (_, i) => ({ name: `note${i}`, field_type: 'string' })),
    ];
    expect((await call('POST', '/v1/blueprints', { slug: 'svc', name: 'Service', fields })).status).toBe(201);
  });
  afterAll(async () => {
    await api.close();
  });

  it('answers 400 VALIDATION_ERROR to entity fields nested 10,000 levels deep', async () => {
    const res = await raw(
      'POST',
      '/v1/blueprints/svc/entities',
      `{"slug":"deep","name":"Deep","fields":{"owner":${nested(10_000)}}}`,
    );
    expect(res.status, res.text).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.details).toEqual([{ path: 'body', message: 'nests deeper than 32 levels' }]);
  });

  it('answers 400 naming the body to a body nesting 33 levels, and parses one of 32', async () => {
    const deep = await raw('PUT', '/v1/blueprints/svc/entities/none', `{"fields":{"owner":${nested(31)}}}`);
    expect(deep.status).toBe(400);
    expect(deep.body.details[0].path).toBe('body');
    const within = await raw(
      'POST',
      '/v1/blueprints/svc/entities',
      `{"slug":"ok","name":"Ok","x":${nested(31)}}`,
    );
    expect(within.status).toBe(400);
    expect(within.body.details[0].path).not.toBe('body');
  });

  it('answers a small 400 to an entity with 60,000 unknown field names', async () => {
    const fields = Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`f${i}`, 1]));
    const res = await call('POST', '/v1/blueprints/svc/entities', { slug: 'many', name: 'Many', fields });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.text.length).toBeLessThan(2000);
    expect(res.body.details).toEqual([{ path: 'fields', message: 'Use at most 100 fields.' }]);
  });

  it('answers at most 20 details plus a count of the rest, with bounded messages', async () => {
    const fields = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`x${'y'.repeat(500)}${i}`, 1]));
    const res = await call('POST', '/v1/blueprints/svc/entities', { slug: 'fifty', name: 'Fifty', fields });
    expect(res.status).toBe(400);
    expect(res.body.details).toHaveLength(21);
    expect(res.body.details[20]).toEqual({ path: '…', message: '30 more issues not shown' });
    expect(res.text.length).toBeLessThan(10_000);
  });

  it('names at most 5 unknown body keys in one bounded detail', async () => {
    const body: Record<string, unknown> = { slug: 'keys', name: 'Keys' };
    for (let i = 0; i < 60_000; i += 1) body[`k${i}`] = 1;
    const res = await call('POST', '/v1/blueprints/svc/entities', body);
    expect(res.status).toBe(400);
    expect(res.text.length).toBeLessThan(2000);
    expect(res.body.details[0].message).toBe(
      'Unknown fields: k0, k1, k2, k3, k4, k5, k6, k7 and 59992 more.',
    );
  });

  it('answers 400 to a field value over 4,096 characters, and stores one of 4,096', async () => {
    const tooLong = await call('POST', '/v1/blueprints/svc/entities', {
      slug: 'long',
      name: 'Long',
      fields: { owner: 'a'.repeat(4097) },
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.details).toEqual([{ path: 'fields.owner', message: 'Use at most 4096 characters.' }]);
    const tags = await call('POST', '/v1/blueprints/svc/entities', {
      slug: 'tags',
      name: 'Tags',
      fields: { tags: Array.from({ length: 101 }, () => 't') },
    });
    expect(tags.status).toBe(400);
    const ok = await call('POST', '/v1/blueprints/svc/entities', {
      slug: 'long',
      name: 'Long',
      fields: { owner: 'a'.repeat(4096) },
    });
    expect(ok.status, ok.text).toBe(201);
  });

  it('answers 400 to fields over 64 KB serialised, on create and on update', async () => {
    const big = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`note${i}`, 'n'.repeat(4000)]));
    const created = await call('POST', '/v1/blueprints/svc/entities', {
      slug: 'big',
      name: 'Big',
      fields: big,
    });
    expect(created.status).toBe(400);
    expect(created.body.details).toEqual([
      { path: 'fields', message: 'Keep the fields under 64 KB in all.' },
    ]);
    const half = Object.fromEntries(Object.entries(big).slice(0, 10));
    expect(
      (await call('POST', '/v1/blueprints/svc/entities', { slug: 'big', name: 'Big', fields: half })).status,
    ).toBe(201);
    const rest = Object.fromEntries(Object.entries(big).slice(10));
    const updated = await call('PUT', '/v1/blueprints/svc/entities/big', { fields: rest });
    expect(updated.status).toBe(400);
    expect(updated.body.code).toBe('VALIDATION_ERROR');
  });

  it('says "request body is required" to an empty POST that needs a body', async () => {
    const res = await api.request('POST', '/v1/blueprints/svc/entities', { key: api.adminKey });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'request body is required',
      code: 'VALIDATION_ERROR',
      details: [{ path: 'body', message: 'A request body is required.' }],
    });
  });

  it('names the plan limit in the singular when it is 1', async () => {
    const tenant = await api.createTenant('Solo');
    await api.operator(['tenant', 'limits', tenant.tenantId, '--blueprint-limit', '1']);
    const post = (slug: string) =>
      api.request('POST', '/v1/blueprints', { key: tenant.key, body: { slug, name: slug } });
    expect((await post('one')).status).toBe(201);
    const res = await post('two');
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('the plan allows 1 blueprint');
  });
});
