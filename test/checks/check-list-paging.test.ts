import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ApiHarness, type ApiResponse, runtimes } from '../support/api-harness.ts';
import { newCheck, newEntity, quietTcpCheck } from './check-fixtures.ts';

/**
 * GET /v1/checks with `limit`: pages of the list, oldest check first, the next one announced in a
 * GitHub-style Link header with a sealed cursor bound to the list and the tenant.
 */
describe.each(runtimes)('paged check list ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let other: { tenantId: string; key: string };
  /** Entity id -> its checks' ids, in creation order. */
  const byEntity = new Map<string, string[]>();
  let allIds: string[] = [];
  let goneIds: string[] = [];
  let theirEntity = '';
  let doomed = '';

  const get = (path: string, key = api.adminKey) => api.request('GET', path, { key });
  const nextOf = (res: ApiResponse) => {
    const link = res.headers.link;
    if (link === undefined) return undefined;
    const match = /^<([^>]+)>; rel="next"$/.exec(link);
    expect(match, link).not.toBeNull();
    return match?.[1];
  };

  /** Every page from `first`, following the Link header; the ids in order and each page's length. */
  const walk = async (first: string, key = api.adminKey) => {
    const ids: string[] = [];
    const sizes: number[] = [];
    let path: string | undefined = first;
    while (path !== undefined) {
      const res = await get(path, key);
      expect(res.status, res.text).toBe(200);
      expect(Array.isArray(res.body)).toBe(true);
      ids.push(...res.body.map((c: { id: string }) => c.id));
      sizes.push(res.body.length);
      path = nextOf(res);
      expect(sizes.length).toBeLessThan(100);
    }
    return { ids, sizes };
  };

  const cursorOf = async (path: string, key = api.adminKey) => {
    const next = nextOf(await get(path, key));
    if (!next) throw new Error(`no next page for ${path}`);
    return new URL(next, 'http://x').searchParams.get('cursor') ?? '';
  };

  const expectInvalidCursor = (res: ApiResponse) => {
    expect(res.status, res.text).toBe(400);
    expect(res.body).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ path: 'cursor', message: expect.any(String) }],
    });
  };

  beforeAll(async () => {
    api = await start();
    for (const count of [3, 1, 0, 4]) {
      const entityId = await newEntity(api);
      const ids: string[] = [];
      for (let i = 0; i < count; i += 1) {
        ids.push(
          await newCheck(
            api,
            i % 2 === 0 ? quietTcpCheck(entityId) : { entity_id: entityId, check_type: 'push' },
          ),
        );
      }
      byEntity.set(entityId, ids);
    }
    // An entity deleted a moment ago: its checks are still stored (the purge runs later) but listed nowhere.
    doomed = await newEntity(api);
    goneIds = [await newCheck(api, quietTcpCheck(doomed)), await newCheck(api, quietTcpCheck(doomed))];
    const check = (await get(`/v1/checks/${goneIds[0]}`)).body;
    const deleted = await api.request(
      'DELETE',
      `/v1/blueprints/${check.blueprint_slug}/entities/${check.entity_slug}`,
      { key: api.adminKey },
    );
    expect(deleted.status, deleted.text).toBe(204);
    allIds = [...byEntity.values()].flat().sort();
    other = await api.createTenant('Initech');
    theirEntity = await newEntity(api, { key: other.key, name: 'Payroll' });
    for (let i = 0; i < 3; i += 1) await newCheck(api, quietTcpCheck(theirEntity), other.key);
  });
  afterAll(async () => {
    await api.close();
  });

  it('answers every check in one array without limit, and no Link header', async () => {
    const res = await get('/v1/checks');
    expect(res.status).toBe(200);
    expect(res.headers.link).toBeUndefined();
    expect(res.body.map((c: { id: string }) => c.id).sort()).toEqual(allIds);
    const one = [...byEntity.entries()][0];
    const filtered = await get(`/v1/checks?entity_id=${one?.[0]}`);
    expect(filtered.headers.link).toBeUndefined();
    expect(filtered.body.map((c: { id: string }) => c.id).sort()).toEqual([...(one?.[1] ?? [])].sort());
  });

  it.each([1, 2, 1000])('lists every check exactly once at limit %i, oldest first', async (limit) => {
    const whole = (await get('/v1/checks')).body.map((c: { id: string }) => c.id);
    const { ids, sizes } = await walk(`/v1/checks?limit=${limit}`);
    expect(ids).toEqual(whole);
    expect(ids).toEqual(allIds);
    expect(ids.filter((id) => goneIds.includes(id))).toEqual([]);
    expect(sizes.every((size) => size <= limit)).toBe(true);
    expect(sizes.length).toBe(Math.ceil(allIds.length / limit));
    if (limit === 1000) expect(sizes).toEqual([allIds.length]);
  });

  it.each([1, 2, 1000])("lists each entity's checks exactly once at limit %i", async (limit) => {
    for (const [entityId, ids] of byEntity) {
      const walked = await walk(`/v1/checks?entity_id=${entityId}&limit=${limit}`);
      expect(walked.ids).toEqual([...ids].sort());
      expect(walked.sizes.length).toBe(Math.max(1, Math.ceil(ids.length / limit)));
    }
  });

  it('lists no checks of a deleted entity, paged or not', async () => {
    const res = await get(`/v1/checks?entity_id=${doomed}&limit=1`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
    expect(res.headers.link).toBeUndefined();
  });

  it('reads a page with queries bounded by its size, not the whole list', async () => {
    const query = vi.spyOn(api.table, 'query');
    try {
      const res = await get('/v1/checks?limit=1');
      expect(res.body).toHaveLength(1);
      const checkReads = query.mock.calls.filter(
        ([input]) => input.sk?.op === 'beginsWith' && input.sk.prefix === 'CHECK#',
      );
      expect(checkReads.length).toBeGreaterThan(0);
      // Two items per check (definition and state) for the page and the one that tells more follow.
      expect(checkReads.every(([input]) => input.limit !== undefined && input.limit <= 4)).toBe(true);
    } finally {
      query.mockRestore();
    }
  });

  it('announces the next page in a Link header that keeps entity_id and limit', async () => {
    const first = await get('/v1/checks?limit=2');
    expect(first.body).toHaveLength(2);
    expect(first.headers.link).toMatch(/^<\/v1\/checks\?limit=2&cursor=[A-Za-z0-9_-]+>; rel="next"$/);
    const [entityId] = [...byEntity.entries()].find(([, ids]) => ids.length === 4) ?? [];
    const filtered = await get(`/v1/checks?limit=3&entity_id=${entityId}`);
    expect(filtered.headers.link).toMatch(
      new RegExp(`^</v1/checks\\?entity_id=${entityId}&limit=3&cursor=[A-Za-z0-9_-]+>; rel="next"$`),
    );
    const last = await get(nextOf(filtered) ?? '');
    expect(last.body).toHaveLength(1);
    expect(last.headers.link).toBeUndefined();
  });

  it('hides the table keys inside the cursor', async () => {
    const cursor = await cursorOf('/v1/checks?limit=1');
    expect(Buffer.from(cursor, 'base64url').toString('latin1')).not.toMatch(/CHECK#|TENANT|"pk"/);
  });

  it('refuses a malformed, tampered or forged cursor with 400', async () => {
    expectInvalidCursor(await get('/v1/checks?limit=2&cursor=not-a-cursor'));
    const cursor = await cursorOf('/v1/checks?limit=2');
    const bytes = Buffer.from(cursor, 'base64url');
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 0x01;
    expectInvalidCursor(await get(`/v1/checks?limit=2&cursor=${bytes.toString('base64url')}`));
    const forged = Buffer.from(JSON.stringify({ pk: `TENANT#${api.tenantId}`, sk: 'CHECK#' })).toString(
      'base64url',
    );
    expectInvalidCursor(await get(`/v1/checks?limit=2&cursor=${forged}`));
  });

  it("refuses a cursor of another list: the tenant's list, another entity's, another page size is fine", async () => {
    const [entityA, entityB] = [...byEntity.entries()].filter(([, ids]) => ids.length > 2).map(([id]) => id);
    const tenantCursor = await cursorOf('/v1/checks?limit=1');
    const entityCursor = await cursorOf(`/v1/checks?entity_id=${entityA}&limit=1`);
    expectInvalidCursor(await get(`/v1/checks?entity_id=${entityA}&limit=1&cursor=${tenantCursor}`));
    expectInvalidCursor(await get(`/v1/checks?limit=1&cursor=${entityCursor}`));
    expectInvalidCursor(await get(`/v1/checks?entity_id=${entityB}&limit=1&cursor=${entityCursor}`));
    const resized = await get(`/v1/checks?entity_id=${entityA}&limit=50&cursor=${entityCursor}`);
    expect(resized.status).toBe(200);
    expect(resized.body.map((c: { id: string }) => c.id)).toEqual(
      (byEntity.get(entityA ?? '') ?? []).slice(1),
    );
  });

  it("makes another tenant's cursor useless, and never shows that tenant's checks", async () => {
    const theirs = await cursorOf('/v1/checks?limit=1', other.key);
    expectInvalidCursor(await get(`/v1/checks?limit=1&cursor=${theirs}`));
    const theirEntityCursor = await cursorOf(`/v1/checks?entity_id=${theirEntity}&limit=1`, other.key);
    expectInvalidCursor(await get(`/v1/checks?entity_id=${theirEntity}&limit=1&cursor=${theirEntityCursor}`));
    const mine = await get(`/v1/checks?entity_id=${theirEntity}&limit=10`);
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual([]);
    const walked = await walk('/v1/checks?limit=2', other.key);
    expect(walked.ids).toHaveLength(3);
    expect(walked.ids.some((id) => allIds.includes(id))).toBe(false);
  });

  it.each(['0', '1001', '-1', 'ten', '2.5', ''])('refuses limit=%s with 400', async (limit) => {
    const res = await get(`/v1/checks?limit=${limit}`);
    expect(res.status, res.text).toBe(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: 'limit' }] });
  });

  it('refuses a cursor without limit', async () => {
    const cursor = await cursorOf('/v1/checks?limit=1');
    const res = await get(`/v1/checks?cursor=${cursor}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: 'limit' }] });
  });
});
