import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { newCheck, newEntity, quietPushCheck, record, recordSlot, soloTcpCheck } from './check-fixtures.ts';

const RESULT_KEYS = [
  'check_id',
  'checked_at',
  'error_message',
  'id',
  'latency_ms',
  'outcome',
  'status_code',
  'success',
];
const COUNT = 7;

/** The results API of pull checks, each alone in its cell: results recorded as its cell's slots. */
describe.each(runtimes)('check results ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let checkId: string;
  let otherCheckId: string;
  const t0 = Date.now() - 3_600_000;
  const get = (path: string, key = api.adminKey) => api.request('GET', path, { key });

  /** Follows next_cursor from the first page to the end; returns every page. */
  const allPages = async (path: string, limit: number) => {
    const pages: { results: { id: string; checked_at: string }[]; next_cursor: string | null }[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const res = await get(`${path}${path.includes('?') ? '&' : '?'}${query}`);
      expect(res.status, res.text).toBe(200);
      pages.push(res.body);
      cursor = res.body.next_cursor;
    } while (cursor && pages.length < 20);
    return pages;
  };

  beforeAll(async () => {
    api = await start();
    const entityId = await newEntity(api);
    checkId = await newCheck(api, soloTcpCheck(entityId));
    otherCheckId = await newCheck(api, soloTcpCheck(entityId));
    for (let i = 0; i < COUNT; i += 1) {
      await recordSlot(api, checkId, {
        success: i % 3 !== 2,
        latency_ms: 10 + i,
        checkedAtMs: t0 + i * 1000,
      });
    }
    await recordSlot(api, otherCheckId, { success: true, checkedAtMs: t0 });
    await recordSlot(api, otherCheckId, { success: true, checkedAtMs: t0 + 1000 });
  });
  afterAll(async () => {
    await api.close();
  });

  it('returns {results, next_cursor} newest first, with the documented record fields', async () => {
    const res = await get(`/v1/checks/${checkId}/results`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['next_cursor', 'results']);
    expect(res.body.next_cursor).toBeNull();
    const results = res.body.results;
    expect(results).toHaveLength(COUNT);
    expect(Object.keys(results[0]).sort()).toEqual(RESULT_KEYS);
    expect(results[0]).toMatchObject({
      check_id: checkId,
      status_code: 0,
      latency_ms: 10 + COUNT - 1,
      success: true,
      error_message: '',
      checked_at: new Date(t0 + (COUNT - 1) * 1000).toISOString(),
    });
    expect(results[0].id).toMatch(/^res_/);
    const times = results.map((r: { checked_at: string }) => r.checked_at);
    expect(times).toEqual([...times].sort().reverse());
    expect(results.find((r: { success: boolean }) => !r.success).error_message).toBe('connection refused');
  });

  it('pages with limit and cursor through every result exactly once; next_cursor is null on the last page', async () => {
    const full = (await get(`/v1/checks/${checkId}/results`)).body.results.map((r: { id: string }) => r.id);
    const pages = await allPages(`/v1/checks/${checkId}/results`, 3);
    expect(pages.map((p) => p.results.length)).toEqual([3, 3, 1]);
    expect(pages.flatMap((p) => p.results.map((r) => r.id))).toEqual(full);
    expect(pages.at(-1)?.next_cursor).toBeNull();
  });

  it('answers next_cursor null when the last page is exactly full', async () => {
    const pages = await allPages(`/v1/checks/${checkId}/results`, COUNT);
    expect(pages).toHaveLength(1);
    expect(pages[0]?.results).toHaveLength(COUNT);
  });

  it('pages 50 results by default', async () => {
    const busy = await newCheck(api, soloTcpCheck(await newEntity(api)));
    for (let i = 0; i < 52; i += 1) await recordSlot(api, busy, { success: true, checkedAtMs: t0 + i });
    const first = await get(`/v1/checks/${busy}/results`);
    expect(first.body.results).toHaveLength(50);
    expect(first.body.results[0].checked_at).toBe(new Date(t0 + 51).toISOString());
    const second = await get(
      `/v1/checks/${busy}/results?cursor=${encodeURIComponent(first.body.next_cursor)}`,
    );
    expect(second.body.results.map((r: { checked_at: string }) => r.checked_at)).toEqual([
      new Date(t0 + 1).toISOString(),
      new Date(t0).toISOString(),
    ]);
    expect(second.body.next_cursor).toBeNull();
  });

  it('starts a page at ?until= (inclusive, any offset) and pages on from there, as an evidence link needs', async () => {
    const full = (await get(`/v1/checks/${checkId}/results`)).body.results.map(
      (r: { id: string; checked_at: string }) => r,
    );
    const third = full[2];
    // The same instant written with an offset: the page starts at the third newest result.
    const local = new Date(Date.parse(third.checked_at) + 2 * 3_600_000).toISOString().replace('Z', '+02:00');
    for (const until of [third.checked_at, local]) {
      const pages = await allPages(`/v1/checks/${checkId}/results?until=${encodeURIComponent(until)}`, 2);
      expect(pages.flatMap((p) => p.results.map((r) => r.id))).toEqual(
        full.slice(2).map((r: { id: string }) => r.id),
      );
    }
    // A moment before the newest result leaves it out; one before the oldest leaves nothing.
    const justBefore = new Date(Date.parse(full[0].checked_at) - 1).toISOString();
    const page = await get(`/v1/checks/${checkId}/results?until=${justBefore}`);
    expect(page.body.results.map((r: { id: string }) => r.id)).toEqual(
      full.slice(1).map((r: { id: string }) => r.id),
    );
    const none = await get(`/v1/checks/${checkId}/results?until=${new Date(t0 - 1).toISOString()}`);
    expect(none.body).toEqual({ results: [], next_cursor: null });
  });

  it("cuts a push check's own results (keyed by checked_at) at ?until= too", async () => {
    const push = await newCheck(api, quietPushCheck(await newEntity(api)));
    for (let i = 0; i < 4; i += 1) await record(api, push, { success: true, checkedAtMs: t0 + i * 1000 });
    const res = await get(`/v1/checks/${push}/results?until=${new Date(t0 + 2000).toISOString()}`);
    expect(res.body.results.map((r: { checked_at: string }) => r.checked_at)).toEqual(
      [2000, 1000, 0].map((ms) => new Date(t0 + ms).toISOString()),
    );
  });

  it.each([
    ['until=yesterday', 'until'],
    [`until=${new Date().toISOString()}&location=default`, 'until'],
  ])('rejects %s with 400 VALIDATION_ERROR', async (query, path) => {
    const res = await get(`/v1/checks/${checkId}/results?${query}`);
    expect(res.status, res.text).toBe(400);
    expect(res.body.details.map((d: { path: string }) => d.path)).toEqual([path]);
  });

  it('returns an empty page for a check without results', async () => {
    const fresh = await newCheck(api, soloTcpCheck(await newEntity(api)));
    expect((await get(`/v1/checks/${fresh}/results`)).body).toEqual({ results: [], next_cursor: null });
  });

  it.each(['0', '501', '-1', '2.5', 'ten', ''])(
    'rejects limit=%s with 400 VALIDATION_ERROR',
    async (limit) => {
      const res = await get(`/v1/checks/${checkId}/results?limit=${limit}`);
      expect(res.status, res.text).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(res.body.details.map((d: { path: string }) => d.path)).toEqual(['limit']);
    },
  );

  it('accepts limit=500', async () => {
    const res = await get(`/v1/checks/${checkId}/results?limit=500`);
    expect(res.status).toBe(200);
    expect(res.body.results).toHaveLength(COUNT);
  });

  it("rejects a malformed cursor and another list's cursor with 400 VALIDATION_ERROR", async () => {
    const foreign = (await get(`/v1/checks/${otherCheckId}/results?limit=1`)).body.next_cursor;
    expect(foreign).toEqual(expect.any(String));
    const forged = Buffer.from(JSON.stringify({ pk: `CHECK#${checkId}`, sk: 'TRN#x' })).toString('base64url');
    for (const cursor of ['not-a-cursor', foreign, forged, Buffer.from('[1]').toString('base64url')]) {
      const res = await get(`/v1/checks/${checkId}/results?cursor=${encodeURIComponent(cursor)}`);
      expect(res.status, cursor).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(res.body.details.map((d: { path: string }) => d.path)).toEqual(['cursor']);
    }
  });

  it('lets a read-only key read results', async () => {
    const viewer = (
      await api.request('POST', '/v1/auth/keys', {
        key: api.adminKey,
        body: { label: 'viewer', is_read_only: true },
      })
    ).body.key;
    const res = await get(`/v1/checks/${checkId}/results?limit=2`, viewer);
    expect(res.status).toBe(200);
    expect(res.body.results).toHaveLength(2);
  });
});
