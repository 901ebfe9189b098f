import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { tally } from '../support/tally.ts';
import { newEntity, quietTcpCheck } from './check-fixtures.ts';

const CONTENDERS = 25;
const LIMIT = 10;

describe.each(runtimes)('check_limit_per_entity ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;

  beforeAll(async () => {
    api = await start();
  });
  afterAll(async () => {
    await api.close();
  });

  it(`admits exactly ${LIMIT} of ${CONTENDERS} concurrent check creates on one entity; the rest get 403 LIMIT_EXCEEDED`, async () => {
    const tenant = await api.createTenant('Hooli');
    await api.operator(['tenant', 'limits', tenant.tenantId, '--check-limit-per-entity', String(LIMIT)]);
    const entityId = await newEntity(api, { key: tenant.key });
    const results = await Promise.all(
      Array.from({ length: CONTENDERS }, () =>
        api.request('POST', '/v1/checks', { key: tenant.key, body: quietTcpCheck(entityId) }),
      ),
    );
    expect(tally(results.map((r) => r.status))).toEqual({ 201: LIMIT, 403: CONTENDERS - LIMIT });
    for (const res of results.filter((r) => r.status === 403)) expect(res.body.code).toBe('LIMIT_EXCEEDED');
    const list = await api.request('GET', `/v1/checks?entity_id=${entityId}`, { key: tenant.key });
    expect(list.body).toHaveLength(LIMIT);

    // The limit is per entity, and a delete frees a place.
    const other = await newEntity(api, { key: tenant.key });
    const elsewhere = await api.request('POST', '/v1/checks', {
      key: tenant.key,
      body: quietTcpCheck(other),
    });
    expect(elsewhere.status).toBe(201);
    const victim = results.find((r) => r.status === 201)?.body.id;
    expect((await api.request('DELETE', `/v1/checks/${victim}`, { key: tenant.key })).status).toBe(204);
    const again = await api.request('POST', '/v1/checks', { key: tenant.key, body: quietTcpCheck(entityId) });
    expect(again.status).toBe(201);
    const full = await api.request('POST', '/v1/checks', { key: tenant.key, body: quietTcpCheck(entityId) });
    expect(full.status).toBe(403);
  });

  it('answers 403 LIMIT_EXCEEDED when the plan allows no checks', async () => {
    const tenant = await api.createTenant('Pied Piper');
    await api.operator(['tenant', 'limits', tenant.tenantId, '--check-limit-per-entity', '0']);
    const entityId = await newEntity(api, { key: tenant.key });
    const res = await api.request('POST', '/v1/checks', { key: tenant.key, body: quietTcpCheck(entityId) });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('LIMIT_EXCEEDED');
  });
});
