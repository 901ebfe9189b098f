import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';

/** Relation answers name both ends; neighbourhoods (hops), blueprint and type filters. */
describe.each(runtimes)('relation names and filters ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  const ids: Record<string, string> = {};
  const call = (method: string, path: string, body?: unknown, key = api.adminKey) =>
    api.request(method, path, { key, body });
  const id = (slug: string) => ids[slug] ?? '';
  const relate = async (from: string, to: string, relation_type = 'depends_on') => {
    const res = await call('POST', '/v1/relations', {
      from_entity_id: id(from),
      to_entity_id: id(to),
      relation_type,
    });
    expect(res.status).toBe(201);
    return res.body;
  };
  const pairs = (rels: { from_entity: { slug: string }; to_entity: { slug: string } }[]) =>
    rels.map((r) => `${r.from_entity.slug}>${r.to_entity.slug}`).sort();

  beforeAll(async () => {
    api = await start();
    for (const [bp, slugs] of [
      ['svc', ['web', 'api', 'worker']],
      ['db', ['main-db', 'cache', 'disk']],
    ] as const) {
      await call('POST', '/v1/blueprints', { slug: bp, name: bp.toUpperCase() });
      for (const slug of slugs) {
        const res = await call('POST', `/v1/blueprints/${bp}/entities`, { slug, name: `The ${slug}` });
        ids[slug] = res.body.id;
      }
    }
    // web → api → main-db → disk; worker → cache; api owned_by worker
    await relate('web', 'api');
    await relate('api', 'main-db');
    await relate('main-db', 'disk');
    await relate('worker', 'cache');
    await relate('api', 'worker', 'owned_by');
  });
  afterAll(async () => {
    await api.close();
  });

  it('names both ends of every relation it lists, and of the one it creates', async () => {
    const list = await call('GET', '/v1/relations');
    expect(list.status).toBe(200);
    const webApi = list.body.find((r: { from_entity_id: string }) => r.from_entity_id === id('web'));
    expect(webApi.from_entity).toEqual({
      name: 'The web',
      slug: 'web',
      blueprint_slug: 'svc',
      state: 'unknown',
    });
    expect(webApi.to_entity).toEqual({
      name: 'The api',
      slug: 'api',
      blueprint_slug: 'svc',
      state: 'unknown',
    });
    expect(list.body).toHaveLength(5);
  });

  it("shows an entity's new name in its relations after a rename", async () => {
    const put = await call('PUT', '/v1/blueprints/db/entities/disk', { name: 'Disk array' });
    expect(put.status).toBe(200);
    const list = await call('GET', `/v1/relations?entity_id=${id('disk')}`);
    expect(list.body).toHaveLength(1);
    expect(list.body[0].to_entity.name).toBe('Disk array');
  });

  it('answers the neighbourhood of an entity within the hops asked', async () => {
    const one = await call('GET', `/v1/relations?entity_id=${id('api')}`);
    expect(pairs(one.body)).toEqual(['api>main-db', 'api>worker', 'web>api']);
    const two = await call('GET', `/v1/relations?entity_id=${id('api')}&hops=2`);
    expect(pairs(two.body)).toEqual(['api>main-db', 'api>worker', 'main-db>disk', 'web>api', 'worker>cache']);
    const dependsOn = await call(
      'GET',
      `/v1/relations?entity_id=${id('web')}&hops=2&relation_type=depends_on`,
    );
    expect(pairs(dependsOn.body)).toEqual(['api>main-db', 'web>api']);
    expect((await call('GET', `/v1/relations?entity_id=${id('web')}&hops=4`)).status).toBe(400);
  });

  it('answers the blast radius of an entity: every depends_on path into it, however deep', async () => {
    const disk = await call('GET', `/v1/relations?dependents_of=${id('disk')}`);
    expect(disk.status).toBe(200);
    expect(pairs(disk.body)).toEqual(['api>main-db', 'main-db>disk', 'web>api']);
    const cache = await call('GET', `/v1/relations?dependents_of=${id('cache')}`);
    expect(pairs(cache.body)).toEqual(['worker>cache']);
    expect((await call('GET', `/v1/relations?dependents_of=${id('web')}`)).body).toEqual([]);
  });

  it('answers the relations with an end in one blueprint', async () => {
    const db = await call('GET', '/v1/relations?blueprint_slug=db&relation_type=depends_on');
    expect(pairs(db.body)).toEqual(['api>main-db', 'main-db>disk', 'worker>cache']);
  });

  it("never names another tenant's entities or walks into them", async () => {
    const other = await api.createTenant('Initech');
    const theirs = await call('GET', '/v1/relations', undefined, other.key);
    expect(theirs.body).toEqual([]);
    expect(
      (await call('GET', `/v1/relations?entity_id=${id('api')}&hops=3`, undefined, other.key)).status,
    ).toBe(404);
  });
});
