import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';

/** GET /v1/entities: pages, the blueprint filter and the name-or-slug text filter (on the server). */
describe.each(runtimes)('entity list ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  const get = (path: string, key = api.adminKey) => api.request('GET', path, { key });
  const slugsOf = (body: { entities: { slug: string }[] }) => body.entities.map((e) => e.slug);

  /** Every page of a list, following next_cursor. */
  const all = async (path: string) => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const sep = path.includes('?') ? '&' : '?';
      const res = await get(cursor ? `${path}${sep}cursor=${encodeURIComponent(cursor)}` : path);
      expect(res.status).toBe(200);
      seen.push(...slugsOf(res.body));
      cursor = res.body.next_cursor;
    } while (cursor);
    return seen;
  };

  beforeAll(async () => {
    api = await start();
    await api.request('POST', '/v1/blueprints', {
      key: api.adminKey,
      body: { slug: 'svc', name: 'Service' },
    });
    await api.request('POST', '/v1/blueprints', {
      key: api.adminKey,
      body: { slug: 'db', name: 'Database' },
    });
    for (let i = 0; i < 12; i += 1) {
      const slug = `node-${String(i).padStart(2, '0')}`;
      await api.request('POST', '/v1/blueprints/svc/entities', {
        key: api.adminKey,
        body: { slug, name: `Node ${i}` },
      });
    }
    for (const [slug, name] of [
      ['payments', 'Payments API'],
      ['pay-db', 'Ledger'],
      ['orders', 'payroll store'],
    ]) {
      await api.request('POST', '/v1/blueprints/db/entities', { key: api.adminKey, body: { slug, name } });
    }
  });
  afterAll(async () => {
    await api.close();
  });

  it('pages through one blueprint in slug order, each entity once', async () => {
    const first = await get('/v1/entities?blueprint_slug=svc&limit=5');
    expect(first.status).toBe(200);
    expect(first.body.entities).toHaveLength(5);
    expect(first.body.entities[0]).toMatchObject({ slug: 'node-00', name: 'Node 0', blueprint_slug: 'svc' });
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const slugs = await all('/v1/entities?blueprint_slug=svc&limit=5');
    expect(slugs).toEqual(Array.from({ length: 12 }, (_, i) => `node-${String(i).padStart(2, '0')}`));
  });

  it('pages through every blueprint without one', async () => {
    expect(await all('/v1/entities?limit=4')).toHaveLength(15);
  });

  it('filters by the start of the name or the slug, case-insensitively, names first', async () => {
    expect(await all('/v1/entities?q=PAY&limit=2')).toEqual(['payments', 'orders', 'pay-db']);
    expect(await all('/v1/entities?q=node 1&blueprint_slug=svc')).toEqual(['node-01', 'node-10', 'node-11']);
    expect(await all('/v1/entities?q=pay&blueprint_slug=svc')).toEqual([]);
  });

  it('refuses a cursor of another list and an unknown blueprint', async () => {
    const page = await get('/v1/entities?blueprint_slug=svc&limit=2');
    const mixed = await get(`/v1/entities?q=pay&cursor=${encodeURIComponent(page.body.next_cursor)}`);
    expect(mixed.status).toBe(400);
    const other = await get(
      `/v1/entities?blueprint_slug=db&cursor=${encodeURIComponent(page.body.next_cursor)}`,
    );
    expect(other.status).toBe(400);
    expect((await get('/v1/entities?blueprint_slug=ghost')).status).toBe(404);
  });

  it("never lists or finds another tenant's entities", async () => {
    const other = await api.createTenant('Initech');
    expect((await get('/v1/entities', other.key)).body.entities).toEqual([]);
    expect((await get('/v1/entities?q=pay', other.key)).body.entities).toEqual([]);
  });
});
