import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';

describe.each(runtimes)('relations ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  const call = (method: string, path: string, body?: unknown, key = api.adminKey) =>
    api.request(method, path, { key, body });
  const relate = (from: string, to: string, relation_type = 'depends_on', key = api.adminKey) =>
    call('POST', '/v1/relations', { from_entity_id: from, to_entity_id: to, relation_type }, key);
  const ids: Record<string, string> = {};

  const entity = async (slug: string, key = api.adminKey) => {
    const res = await call('POST', '/v1/blueprints/node/entities', { slug, name: slug.toUpperCase() }, key);
    expect(res.status).toBe(201);
    return res.body.id as string;
  };

  beforeAll(async () => {
    api = await start();
    await call('POST', '/v1/blueprints', { slug: 'node', name: 'Node' });
    for (const slug of ['a', 'b', 'c', 'd', 'e']) ids[slug] = await entity(slug);
  });
  afterAll(async () => {
    await api.close();
  });

  const id = (slug: string) => ids[slug] ?? '';

  it('creates a relation with 201 and the documented record, and lists it', async () => {
    const res = await relate(id('a'), id('b'), 'part_of');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^rel_/),
      from_entity_id: id('a'),
      to_entity_id: id('b'),
      relation_type: 'part_of',
      from_entity: { name: 'A', slug: 'a', blueprint_slug: 'node', state: 'unknown' },
      to_entity: { name: 'B', slug: 'b', blueprint_slug: 'node', state: 'unknown' },
      created_at: expect.any(String),
    });
    const list = await call('GET', '/v1/relations');
    expect(list.status).toBe(200);
    expect(list.body).toContainEqual(res.body);
  });

  it('rejects the depends_on edge that would close a cycle (a→b→c, then c→a)', async () => {
    expect((await relate(id('a'), id('b'))).status).toBe(201);
    expect((await relate(id('b'), id('c'))).status).toBe(201);
    const cycle = await relate(id('c'), id('a'));
    expect(cycle.status).toBe(400);
    expect(cycle.body.code).toBe('VALIDATION_ERROR');
    expect(cycle.body.details[0].path).toBe('to_entity_id');
    // Sentences a person reads, without the field's name.
    expect(cycle.body.error).toMatch(/^This relation would close a dependency cycle/);
    expect(cycle.body.error).not.toContain('to_entity_id');
    // Other relation types do not take part in the depends_on graph.
    expect((await relate(id('c'), id('a'), 'connects_to')).status).toBe(201);
    // A shortcut in the same direction is no cycle.
    expect((await relate(id('a'), id('c'))).status).toBe(201);
  });

  it('answers 409 CONFLICT for a duplicate relation, but allows the same pair with another type', async () => {
    expect((await relate(id('d'), id('e'), 'owned_by')).status).toBe(201);
    const dup = await relate(id('d'), id('e'), 'owned_by');
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('CONFLICT');
    expect((await relate(id('d'), id('e'), 'connects_to')).status).toBe(201);
  });

  it('rejects a self-relation and an unknown type with 400', async () => {
    const self = await relate(id('a'), id('a'), 'connects_to');
    expect(self.status).toBe(400);
    expect(self.body.details[0].path).toBe('to_entity_id');
    const type = await relate(id('a'), id('b'), 'likes');
    expect(type.status).toBe(400);
    expect(type.body.details[0].path).toBe('relation_type');
  });

  it("answers 404 naming the end that is missing or another tenant's", async () => {
    const other = await api.createTenant('Soylent');
    await call('POST', '/v1/blueprints', { slug: 'node', name: 'Node' }, other.key);
    const foreign = await entity('x', other.key);

    const to = await relate(id('a'), foreign, 'connects_to');
    expect(to.status).toBe(404);
    expect(to.body.code).toBe('NOT_FOUND');
    expect(to.body.error).toContain('to_entity_id');
    const from = await relate('ent_01J00000000000000000000000', id('a'), 'connects_to');
    expect(from.status).toBe(404);
    expect(from.body.error).toContain('from_entity_id');
    // The other tenant can neither use our entities nor see our relations.
    expect((await relate(foreign, id('a'), 'connects_to', other.key)).status).toBe(404);
    expect((await call('GET', '/v1/relations', undefined, other.key)).body).toEqual([]);
    expect((await call('GET', `/v1/relations?entity_id=${id('a')}`, undefined, other.key)).status).toBe(404);
  });

  it('filters the list by entity_id, matching either end', async () => {
    const res = await call('GET', `/v1/relations?entity_id=${id('c')}`);
    expect(res.status).toBe(200);
    expect(res.body.length).toBeGreaterThan(0);
    for (const rel of res.body) expect([rel.from_entity_id, rel.to_entity_id]).toContain(id('c'));
    const all = (await call('GET', '/v1/relations')).body;
    const touching = all.filter(
      (rel: { from_entity_id: string; to_entity_id: string }) =>
        rel.from_entity_id === id('c') || rel.to_entity_id === id('c'),
    );
    expect(res.body).toEqual(touching);
  });

  it('deletes a relation with 204, after which the edge can be created again', async () => {
    const created = await relate(id('e'), id('a'), 'depends_on');
    expect(created.status).toBe(201);
    const del = await call('DELETE', `/v1/relations/${created.body.id}`);
    expect(del.status).toBe(204);
    expect((await call('DELETE', `/v1/relations/${created.body.id}`)).status).toBe(404);
    const ids2 = (await call('GET', '/v1/relations')).body.map((r: { id: string }) => r.id);
    expect(ids2).not.toContain(created.body.id);
    expect((await relate(id('e'), id('a'), 'depends_on')).status).toBe(201);
  });

  it('lets a removed depends_on edge no longer block the reverse edge', async () => {
    const p = await entity('p');
    const q = await entity('q');
    const forward = await relate(p, q);
    expect((await relate(q, p)).status).toBe(400);
    await call('DELETE', `/v1/relations/${forward.body.id}`);
    expect((await relate(q, p)).status).toBe(201);
  });

  it('never admits both edges of a cycle created concurrently', async () => {
    const m = await entity('m');
    const n = await entity('n');
    const results = await Promise.all([relate(m, n), relate(n, m)]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 400]);
  });

  it('hides relations of a deleted entity at once, before any purge', async () => {
    const gone = await entity('gone');
    const rel = await relate(gone, id('a'), 'connects_to');
    expect(rel.status).toBe(201);
    expect((await call('DELETE', '/v1/blueprints/node/entities/gone')).status).toBe(204);
    const list = (await call('GET', '/v1/relations')).body.map((r: { id: string }) => r.id);
    expect(list).not.toContain(rel.body.id);
    const forA = (await call('GET', `/v1/relations?entity_id=${id('a')}`)).body.map(
      (r: { id: string }) => r.id,
    );
    expect(forA).not.toContain(rel.body.id);
  });
});
