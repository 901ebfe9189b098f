import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { tally } from '../support/tally.ts';

const CONTENDERS = 25;
const LIMIT = 10;

describe.each(runtimes)('plan limits ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;

  beforeAll(async () => {
    api = await start();
  });
  afterAll(async () => {
    await api.close();
  });

  it(`admits exactly ${LIMIT} of ${CONTENDERS} concurrent blueprint creates; the rest get 403 LIMIT_EXCEEDED`, async () => {
    const tenant = await api.createTenant('Tyrell');
    await api.operator(['tenant', 'limits', tenant.tenantId, '--blueprint-limit', String(LIMIT)]);
    const results = await Promise.all(
      Array.from({ length: CONTENDERS }, (_, i) =>
        api.request('POST', '/v1/blueprints', {
          key: tenant.key,
          body: { slug: `bp-${i}`, name: `BP ${i}` },
        }),
      ),
    );
    expect(tally(results.map((r) => r.status))).toEqual({ 201: LIMIT, 403: CONTENDERS - LIMIT });
    for (const res of results.filter((r) => r.status === 403)) expect(res.body.code).toBe('LIMIT_EXCEEDED');
    const list = await api.request('GET', '/v1/blueprints', { key: tenant.key });
    expect(list.body).toHaveLength(LIMIT);
  });

  it(`admits exactly ${LIMIT} of ${CONTENDERS} concurrent entity creates in one blueprint`, async () => {
    const tenant = await api.createTenant('Wallace');
    await api.operator(['tenant', 'limits', tenant.tenantId, '--entity-limit-per-bp', String(LIMIT)]);
    await api.request('POST', '/v1/blueprints', { key: tenant.key, body: { slug: 'host', name: 'Host' } });
    const results = await Promise.all(
      Array.from({ length: CONTENDERS }, (_, i) =>
        api.request('POST', '/v1/blueprints/host/entities', {
          key: tenant.key,
          body: { slug: `h-${i}`, name: `H ${i}` },
        }),
      ),
    );
    expect(tally(results.map((r) => r.status))).toEqual({ 201: LIMIT, 403: CONTENDERS - LIMIT });
    for (const res of results.filter((r) => r.status === 403)) expect(res.body.code).toBe('LIMIT_EXCEEDED');
    const list = await api.request('GET', '/v1/blueprints/host/entities', { key: tenant.key });
    expect(list.body).toHaveLength(LIMIT);
    // The limit is per blueprint: another blueprint still has room.
    await api.request('POST', '/v1/blueprints', { key: tenant.key, body: { slug: 'db', name: 'DB' } });
    const other = await api.request('POST', '/v1/blueprints/db/entities', {
      key: tenant.key,
      body: { slug: 'x', name: 'X' },
    });
    expect(other.status).toBe(201);
  });

  it('answers 403 LIMIT_EXCEEDED when the limit is 0, and a duplicate slug at the limit still gets 409', async () => {
    const tenant = await api.createTenant('Massive');
    await api.operator(['tenant', 'limits', tenant.tenantId, '--blueprint-limit', '1']);
    const post = (slug: string) =>
      api.request('POST', '/v1/blueprints', { key: tenant.key, body: { slug, name: slug } });
    expect((await post('one')).status).toBe(201);
    expect((await post('one')).status).toBe(409);
    expect((await post('two')).body.code).toBe('LIMIT_EXCEEDED');
    await api.operator([
      'tenant',
      'limits',
      tenant.tenantId,
      '--blueprint-limit',
      '0',
      '--entity-limit-per-bp',
      '0',
    ]);
    expect((await post('three')).status).toBe(403);
    const entity = await api.request('POST', '/v1/blueprints/one/entities', {
      key: tenant.key,
      body: { slug: 'e', name: 'E' },
    });
    expect(entity.status).toBe(403);
    expect(entity.body.code).toBe('LIMIT_EXCEEDED');
  });
});
