import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';

const RESERVED = ['__proto__', 'constructor', 'prototype'] as const;

describe.each(runtimes)('reserved names ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let entityId: string;
  const call = (method: string, path: string, body: string) =>
    api.request(method, path, {
      key: api.adminKey,
      rawBody: body,
      headers: { 'content-type': 'application/json' },
    });

  beforeAll(async () => {
    api = await start();
    const fields = [{ name: 'owner', field_type: 'string' }];
    await call('POST', '/v1/blueprints', JSON.stringify({ slug: 'svc', name: 'Service', fields }));
    const entity = await call('POST', '/v1/blueprints/svc/entities', '{"slug":"api","name":"API"}');
    entityId = entity.body.id;
  });
  afterAll(async () => {
    await api.close();
  });

  it.each(RESERVED)('refuses %s as a blueprint field name with 400', async (name) => {
    const created = await call(
      'POST',
      '/v1/blueprints',
      `{"slug":"bp-${name.length}","name":"BP","fields":[{"name":"${name}","field_type":"string"}]}`,
    );
    expect(created.status, created.text).toBe(400);
    expect(created.body.code).toBe('VALIDATION_ERROR');
    const added = await call('POST', '/v1/blueprints/svc/fields', `{"name":"${name}","field_type":"string"}`);
    expect(added.status).toBe(400);
  });

  it.each(RESERVED)('refuses %s as an entity field with 400, on create and on update', async (name) => {
    const created = await call(
      'POST',
      '/v1/blueprints/svc/entities',
      `{"slug":"e-${name.length}","name":"E","fields":{"${name}":{"owner":"x"}}}`,
    );
    expect(created.status, created.text).toBe(400);
    expect(created.body.details[0].path).toBe(`fields.${name}`);
    const updated = await call('PUT', '/v1/blueprints/svc/entities/api', `{"fields":{"${name}":"x"}}`);
    expect(updated.status).toBe(400);
  });

  it('refuses __proto__ written with escapes, anywhere in a body', async () => {
    const res = await call(
      'PUT',
      '/v1/blueprints/svc/entities/api',
      '{"name":"A","x":{"\\u005f_proto__":1}}',
    );
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([{ path: 'x.__proto__', message: "'__proto__' is a reserved name" }]);
  });

  it.each(RESERVED)('refuses %s as a check header name with 400', async (name) => {
    const res = await call(
      'POST',
      '/v1/checks',
      JSON.stringify({ entity_id: entityId, check_type: 'http', target_url: 'https://example.com' }).replace(
        /}$/,
        `,"headers":{"${name}":"v"}}`,
      ),
    );
    expect(res.status, res.text).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
  });
});
