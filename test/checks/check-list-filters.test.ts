import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEntityStore } from '../../lib/catalog/entities/entity-store.ts';
import { createCellView } from '../../lib/checks/cells/cell-view.ts';
import { createCheckStore } from '../../lib/checks/definitions/check-store.ts';
import { createCheckPager } from '../../lib/checks/services/check-pages.ts';
import { systemClock } from '../../lib/platform/clock.ts';
import { createCursorSeal } from '../../lib/store/cursor-seal.ts';
import { type ApiHarness, type ApiResponse, runtimes } from '../support/api-harness.ts';
import {
  newCheck,
  newEntity,
  quietPushCheck,
  quietTcpCheck,
  record,
  recordSlot,
  soloTcpCheck,
  uniqueSlug,
} from './check-fixtures.ts';

/**
 * GET /v1/checks filtered on the server (blueprint, entity_id, type, state, q), paged with the
 * filters kept in the Link header; every check answer carries its entity's name; include=recent
 * adds each check's last results and 24 h uptime.
 */
describe.each(runtimes)('filtered check list ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let other: { tenantId: string; key: string };
  const web = uniqueSlug('web');
  const db = uniqueSlug('db');
  let payments = '';
  let orders = '';
  /** Check ids by what they are. */
  const ids = {
    webTcp: [] as string[],
    webPush: '',
    downPush: '',
    dbTcp: '',
    named: '',
  };

  const get = (path: string, key = api.adminKey) => api.request('GET', path, { key });
  const idsOf = (res: ApiResponse) => res.body.map((c: { id: string }) => c.id) as string[];
  const nextOf = (res: ApiResponse) => /^<([^>]+)>; rel="next"$/.exec(res.headers.link ?? '')?.[1];

  /** Every check id from `first`, following the Link header, and each page's length. */
  const walk = async (first: string) => {
    const found: string[] = [];
    const links: string[] = [];
    let path: string | undefined = first;
    while (path !== undefined) {
      const res = await get(path);
      expect(res.status, res.text).toBe(200);
      found.push(...idsOf(res));
      path = nextOf(res);
      if (path) links.push(path);
      expect(links.length).toBeLessThan(50);
    }
    return { found, links };
  };

  beforeAll(async () => {
    api = await start();
    payments = await newEntity(api, { blueprint: web, name: 'Payments API' });
    orders = await newEntity(api, { blueprint: db, name: 'Orders Database' });
    for (let i = 0; i < 3; i += 1) ids.webTcp.push(await newCheck(api, quietTcpCheck(payments)));
    ids.webPush = await newCheck(api, quietPushCheck(payments));
    ids.downPush = await newCheck(api, quietPushCheck(orders, { failure_threshold: 1 }));
    ids.dbTcp = await newCheck(api, quietTcpCheck(orders));
    ids.named = await newCheck(api, quietTcpCheck(orders, { name: 'Replica Lag Probe' }));
    await record(api, ids.downPush, { success: false, checkedAtMs: Date.now() - 1000 });
    other = await api.createTenant('Initech');
    const theirs = await newEntity(api, { key: other.key, blueprint: web, name: 'Payments Elsewhere' });
    await newCheck(api, quietTcpCheck(theirs), other.key);
  });
  afterAll(async () => {
    await api.close();
  });

  it('names the entity in every check answer: list, read, create and update', async () => {
    const listed = await get('/v1/checks?limit=50');
    expect(listed.body.length).toBe(7);
    for (const check of listed.body) {
      expect(check.entity_name).toBe(check.entity_id === payments ? 'Payments API' : 'Orders Database');
    }
    expect((await get(`/v1/checks/${ids.dbTcp}`)).body.entity_name).toBe('Orders Database');
    expect((await get('/v1/checks')).body.every((c: { entity_name?: string }) => c.entity_name)).toBe(true);
    const created = await api.request('POST', '/v1/checks', {
      key: api.adminKey,
      body: quietTcpCheck(orders),
    });
    expect(created.body.entity_name).toBe('Orders Database');
    const updated = await api.request('PUT', `/v1/checks/${created.body.id}`, {
      key: api.adminKey,
      body: { enabled: false },
    });
    expect(updated.body.entity_name).toBe('Orders Database');
    await api.request('DELETE', `/v1/checks/${created.body.id}`, { key: api.adminKey });
  });

  it('filters by blueprint, type, state, entity and text, each and combined, paged or not', async () => {
    const expectIds = async (query: string, expected: string[]) => {
      expect((await walk(`/v1/checks?${query}&limit=2`)).found, query).toEqual(expected);
      expect(idsOf(await get(`/v1/checks?${query}`)), query).toEqual(expected);
    };
    await expectIds(`blueprint=${web}`, [...ids.webTcp, ids.webPush]);
    await expectIds(`blueprint=${db}`, [ids.downPush, ids.dbTcp, ids.named]);
    await expectIds('type=push', [ids.webPush, ids.downPush]);
    await expectIds('state=down', [ids.downPush]);
    await expectIds(`blueprint=${web}&state=down`, []);
    await expectIds(`blueprint=${db}&type=tcp`, [ids.dbTcp, ids.named]);
    await expectIds(`entity_id=${orders}&type=push`, [ids.downPush]);
    // Text in the check's name or its entity's name, in any case; never another tenant's.
    await expectIds('q=replica%20LAG', [ids.named]);
    await expectIds('q=payments', [...ids.webTcp, ids.webPush]);
    await expectIds('q=elsewhere', []);
  });

  it('keeps the filters in the Link header, so the next page is filtered too', async () => {
    const res = await get(`/v1/checks?blueprint=${web}&type=tcp&q=pay&limit=1`);
    expect(res.body).toHaveLength(1);
    const next = new URL(nextOf(res) ?? '', 'http://x').searchParams;
    expect(Object.fromEntries(next)).toMatchObject({ blueprint: web, type: 'tcp', q: 'pay', limit: '1' });
    const { found, links } = await walk(`/v1/checks?blueprint=${web}&type=tcp&include=recent&limit=1`);
    expect(found).toEqual(ids.webTcp);
    expect(links.every((link) => link.includes('include=recent') && link.includes(`blueprint=${web}`))).toBe(
      true,
    );
  });

  it('refuses unknown filter values with a 400 naming the parameter', async () => {
    for (const [query, path] of [
      ['state=sideways', 'state'],
      ['type=ftp', 'type'],
      ['blueprint=no-such-blueprint', 'blueprint'],
      ['blueprint=Not%20A%20Slug', 'blueprint'],
      ['q=%20%20', 'q'],
      ['include=everything&limit=10', 'include'],
      ['include=recent', 'limit'],
      ['include=recent&limit=500', 'limit'],
    ] as const) {
      const res = await get(`/v1/checks?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.details, query).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
    }
  });

  it("keeps another tenant's checks out of every filter", async () => {
    const theirs = await get(`/v1/checks?blueprint=${web}&limit=10`, other.key);
    expect(theirs.body.map((c: { entity_name: string }) => c.entity_name)).toEqual(['Payments Elsewhere']);
    expect(idsOf(await get(`/v1/checks?blueprint=${web}&q=elsewhere&limit=10`))).toEqual([]);
  });

  it('with include=recent, carries the last results (oldest first) and the 24 h uptime', async () => {
    const push = await newCheck(api, quietPushCheck(payments, { failure_threshold: 5 }));
    const now = Date.now();
    const outcomes = [true, false, true, true];
    for (const [i, success] of outcomes.entries()) {
      await record(api, push, { success, checkedAtMs: now - (outcomes.length - i) * 1000 });
    }
    const solo = await newCheck(api, soloTcpCheck(payments));
    await recordSlot(api, solo, { success: true, checkedAtMs: now - 120_000 });
    await recordSlot(api, solo, { success: false, checkedAtMs: now - 60_000 });
    const res = await get(`/v1/checks?entity_id=${payments}&include=recent&limit=100`);
    expect(res.status, res.text).toBe(200);
    const byId = new Map(res.body.map((c: { id: string }) => [c.id, c]));
    expect(byId.get(push)).toMatchObject({
      recent: {
        results: outcomes.map((ok) => ({ outcome: ok ? 'up' : 'down', checked_at: expect.any(String) })),
        uptime_24h: 0.75,
        results_24h: 4,
      },
    });
    expect(byId.get(solo)).toMatchObject({
      recent: { results: [{ outcome: 'up' }, { outcome: 'down' }], uptime_24h: 0.5, results_24h: 2 },
    });
    expect(byId.get(ids.webTcp[0] ?? '')).toMatchObject({
      recent: { results: [], uptime_24h: null, results_24h: 0 },
    });
    // Without include, no check carries it.
    expect((await get('/v1/checks?limit=100')).body.some((c: object) => 'recent' in c)).toBe(false);
  });

  it('reads a bounded number of items per page: a page may end short, but no check is skipped', async () => {
    const pager = createCheckPager({
      table: api.table,
      cursors: createCursorSeal(async () => Buffer.alloc(32, 7)),
      entities: createEntityStore(api.table),
      cellView: createCellView({ table: api.table, clock: systemClock }),
      checks: createCheckStore(api.table),
      scanItemBudget: 4,
    });
    const query = { blueprint: db, limit: 2 };
    const found: string[] = [];
    const sizes: number[] = [];
    let cursor: string | undefined;
    do {
      const page = await pager.page(api.tenantId, { ...query, cursor });
      found.push(...page.checks.map((c) => c.id));
      sizes.push(page.checks.length);
      cursor = page.nextCursor ?? undefined;
      expect(sizes.length).toBeLessThan(50);
    } while (cursor);
    expect(found).toEqual([ids.downPush, ids.dbTcp, ids.named]);
    // Four items are two checks: the first page reads two of the web entity's checks and ends
    // empty, with a cursor after them, rather than reading on.
    expect(sizes[0]).toBe(0);
  });
});
