import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATES } from '../../lib/catalog/entities/entity-state-index-items.ts';
import { countUntold } from '../../lib/notify/records.ts';
import { systemClock } from '../../lib/platform/clock.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import { migrateStatusCounters } from '../../lib/status/status-migration.ts';
import { createStatusService } from '../../lib/status/status-service.ts';
import { createCursorSeal } from '../../lib/store/cursor-seal.ts';
import type { Item, Table } from '../../lib/store/table.ts';
import { newCheck, recordSlot, soloTcpCheck } from '../checks/check-fixtures.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';

/** The status index items as stored (docs/data-model.md, Status): the layout these tests hold the code to. */
const countersKey = (tenantId: string) => ({ pk: `STATUS#${tenantId}`, sk: 'COUNTS' });
const statePk = (tenantId: string, state: string) => `STATUS#${tenantId}#${state}`;
const STATUS_COUNTERS_MIGRATED = { pk: 'MIGRATION', sk: 'status-counters' };

interface BoardEntity {
  id: string;
  blueprint_slug: string;
  slug: string;
  name: string;
  state: string;
  checks: { id: string; check_type: string; state: string }[];
}

/** Every item of a partition (bounded). */
async function partition(table: Table, pk: string): Promise<Item[]> {
  const out: Item[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 100; i += 1) {
    const page = await table.query({ pk, cursor, consistent: true });
    out.push(...page.items);
    cursor = page.cursor;
    if (!cursor) break;
  }
  return out;
}

/** The same table under another identity: a process that has not seen the migration marker yet. */
function otherProcess(table: Table): Table {
  return {
    get: (key, options) => table.get(key, options),
    batchGet: (keys) => table.batchGet(keys),
    query: (input) => table.query(input),
    transact: (ops) => table.transact(ops),
    update: (op) => table.update(op),
    close: () => table.close(),
  };
}

/** A small seeded PRNG, so a failing run can be repeated. */
function prng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1_664_525 + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

describe.each(runtimes)('status counters and pages ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let tenant: { tenantId: string; key: string };
  let other: { tenantId: string; key: string };
  const get = (path: string, key = tenant.key) => api.request('GET', path, { key });
  let clockMs = Date.now() - 3_600_000;
  const result = (checkId: string, success: boolean, tenantId = tenant.tenantId) => {
    clockMs += 1000;
    return recordSlot(api, checkId, { success, checkedAtMs: clockMs, tenantId });
  };

  /** Creates an entity whose slug is `slug` (and its blueprint, once); returns its id. */
  const entity = async (key: string, slug: string, blueprint: string): Promise<string> => {
    await api.request('POST', '/v1/blueprints', { key, body: { slug: blueprint, name: blueprint } });
    const res = await api.request('POST', `/v1/blueprints/${blueprint}/entities`, {
      key,
      body: { slug, name: slug },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.id;
  };

  /** The counters, the index and a recount from the entity items agree exactly. */
  const expectExact = async (who: { tenantId: string; key: string }) => {
    const board = await get('/v1/status', who.key);
    expect(board.status).toBe(200);
    const entities: BoardEntity[] = board.body.entities;
    const recount = Object.fromEntries(STATES.map((s) => [s, entities.filter((e) => e.state === s).length]));
    expect(board.body).toMatchObject({ ...recount, total: entities.length });
    const counters = await api.table.get(countersKey(who.tenantId), { consistent: true });
    for (const state of STATES) {
      expect(counters?.[state] ?? 0).toBe(recount[state]);
      const listed = (await partition(api.table, statePk(who.tenantId, state))).map((i) => i.sk);
      const expected = entities
        .filter((e) => e.state === state)
        .map((e) => `ENT#${e.blueprint_slug}#${e.slug}`)
        .sort();
      expect(listed.sort()).toEqual(expected);
    }
    return board.body;
  };

  /** Every entity of a filtered list, read page by page with `limit`. */
  const allPages = async (filters: string, limit: number) => {
    const seen: BoardEntity[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 200; pages += 1) {
      const path = `/v1/status?${filters}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const res = await get(path);
      expect(res.status, res.text).toBe(200);
      expect(res.body.entities.length).toBeLessThanOrEqual(limit);
      seen.push(...res.body.entities);
      cursor = res.body.next_cursor;
      if (!cursor) return seen;
    }
    throw new Error('too many pages');
  };

  beforeAll(async () => {
    api = await start();
    // The cloud operator seeds after deploying; the local runtime did at startup.
    await api.operator(['status', 'migrate']);
    tenant = await api.createTenant('Fleet');
    other = await api.createTenant('Other');
  });
  afterAll(async () => {
    await api.close();
  });

  it('keeps the counters exact through creates, results, check disable and delete, and entity delete', async () => {
    const a = await entity(tenant.key, 'a', 'svc');
    const b = await entity(tenant.key, 'b', 'svc');
    await entity(tenant.key, 'c', 'db');
    expect(await expectExact(tenant)).toMatchObject({ total: 3, unknown: 3 });
    const a1 = await newCheck(api, soloTcpCheck(a, { failure_threshold: 1 }), tenant.key);
    const a2 = await newCheck(api, soloTcpCheck(a, { failure_threshold: 1 }), tenant.key);
    const b1 = await newCheck(api, soloTcpCheck(b, { failure_threshold: 1 }), tenant.key);
    await result(a1, true);
    await result(a2, false);
    await result(b1, false);
    // a (one check up, one down) is down: the worst check wins (issue 35).
    expect(await expectExact(tenant)).toMatchObject({ degraded: 0, down: 2, unknown: 1 });
    await result(a2, true);
    expect(await expectExact(tenant)).toMatchObject({ up: 1, down: 1, unknown: 1 });
    // Disabling the only failing check's sibling, then deleting the check itself.
    expect(
      (await api.request('PUT', `/v1/checks/${a1}`, { key: tenant.key, body: { enabled: false } })).status,
    ).toBe(200);
    await expectExact(tenant);
    expect((await api.request('DELETE', `/v1/checks/${b1}`, { key: tenant.key })).status).toBe(204);
    expect(await expectExact(tenant)).toMatchObject({ down: 0 });
    expect((await api.request('DELETE', '/v1/blueprints/svc/entities/a', { key: tenant.key })).status).toBe(
      204,
    );
    expect(await expectExact(tenant)).toMatchObject({ total: 2, up: 0 });
  });

  it('keeps the counters exact under concurrent changes of many entities', async () => {
    const checkIds = await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const id = await entity(tenant.key, `burst-${i}`, 'burst');
        return newCheck(api, soloTcpCheck(id, { failure_threshold: 1 }), tenant.key);
      }),
    );
    await Promise.all(checkIds.map((id, i) => result(id, i % 2 === 0)));
    await Promise.all(checkIds.map((id, i) => result(id, i % 3 === 0)));
    await expectExact(tenant);
  });

  it('matches a recount after random operations', async () => {
    const random = prng(19);
    const fuzz = await api.createTenant('Fuzz');
    const live: { slug: string; checks: string[] }[] = [];
    for (let step = 0; step < 40; step += 1) {
      const roll = random();
      const target = live[Math.floor(random() * live.length)];
      if (roll < 0.2 || !target) {
        const slug = `f-${step}`;
        const id = await entity(fuzz.key, slug, 'fz');
        live.push({
          slug,
          checks: [await newCheck(api, soloTcpCheck(id, { failure_threshold: 1 }), fuzz.key)],
        });
      } else if (roll < 0.75 && target.checks.length > 0) {
        const check = target.checks[Math.floor(random() * target.checks.length)] ?? '';
        await result(check, random() < 0.5, fuzz.tenantId);
      } else if (roll < 0.85 && target.checks.length > 0) {
        const check = target.checks.pop() ?? '';
        expect((await api.request('DELETE', `/v1/checks/${check}`, { key: fuzz.key })).status).toBe(204);
      } else if (roll < 0.93) {
        const res = await api.request('DELETE', `/v1/blueprints/fz/entities/${target.slug}`, {
          key: fuzz.key,
        });
        expect(res.status).toBe(204);
        live.splice(live.indexOf(target), 1);
      }
    }
    const board = await expectExact(fuzz);
    expect(board.total).toBe(live.length);
  });

  it('filters by state and blueprint without changing the tenant-wide counts', async () => {
    const all = (await get('/v1/status')).body;
    const down = await get('/v1/status?state=down');
    expect(down.status).toBe(200);
    expect(down.body.entities.every((e: BoardEntity) => e.state === 'down')).toBe(true);
    expect(down.body.entities).toHaveLength(all.down);
    expect(down.body).toMatchObject({ total: all.total, up: all.up, down: all.down, next_cursor: null });
    const burst = (await get('/v1/status?blueprint_slug=burst')).body.entities;
    expect(burst.map((e: BoardEntity) => e.blueprint_slug)).toEqual(Array(8).fill('burst'));
    const burstUp = (await get('/v1/status?blueprint_slug=burst&state=up')).body.entities;
    expect(burstUp).toEqual(burst.filter((e: BoardEntity) => e.state === 'up'));
    expect((await get('/v1/status?blueprint_slug=nothing-here')).body).toMatchObject({
      entities: [],
      total: all.total,
    });
  });

  it('pages every entity exactly once, with or without filters', async () => {
    const all = (await get('/v1/status')).body.entities as BoardEntity[];
    const ids = (list: BoardEntity[]) => list.map((e) => e.id).sort();
    for (const limit of [1, 3, 1000]) {
      expect(ids(await allPages('', limit))).toEqual(ids(all));
    }
    for (const state of STATES) {
      const paged = await allPages(`state=${state}`, 2);
      expect(ids(paged)).toEqual(ids(all.filter((e) => e.state === state)));
    }
    const burstDown = await allPages('state=down&blueprint_slug=burst', 1);
    expect(ids(burstDown)).toEqual(
      ids(all.filter((e) => e.state === 'down' && e.blueprint_slug === 'burst')),
    );
    const page = await allPages('state=down', 1000);
    expect(page.every((e) => Array.isArray(e.checks))).toBe(true);
  });

  it('refuses bad parameters and cursors with 400 VALIDATION_ERROR', async () => {
    const first = (await get('/v1/status?state=up&limit=1')).body.next_cursor as string;
    expect(first).toEqual(expect.any(String));
    const bad = [
      '/v1/status?limit=0',
      '/v1/status?limit=1001',
      '/v1/status?limit=abc',
      '/v1/status?state=sideways',
      '/v1/status?blueprint_slug=Not%20A%20Slug',
      '/v1/status?limit=5&cursor=garbage',
      // A cursor of another list: same tenant, another state.
      `/v1/status?state=down&limit=1&cursor=${encodeURIComponent(first)}`,
    ];
    for (const path of bad) {
      const res = await get(path);
      expect(res.status, path).toBe(400);
      expect(res.body.code, path).toBe('VALIDATION_ERROR');
    }
    // Another tenant's cursor opens nothing of this tenant's.
    await entity(other.key, 'x', 'svc');
    const theirs = await get(`/v1/status?state=up&limit=1&cursor=${encodeURIComponent(first)}`, other.key);
    expect(theirs.status).toBe(400);
  });

  it('seeds a tenant written before the counters, exactly and idempotently', async () => {
    const old = await api.createTenant('Old');
    const e1 = await entity(old.key, 'o1', 'svc');
    await entity(old.key, 'o2', 'svc');
    await result(
      await newCheck(api, soloTcpCheck(e1, { failure_threshold: 1 }), old.key),
      false,
      old.tenantId,
    );
    // Back to the layout of earlier versions: no counter item, no index entries, no marker.
    const leftovers = [
      countersKey(old.tenantId),
      ...(await Promise.all(STATES.map((s) => partition(api.table, statePk(old.tenantId, s))))).flat(),
    ];
    await api.table.transact(leftovers.map((key) => ({ type: 'delete', key: { pk: key.pk, sk: key.sk } })));
    await api.table.transact([{ type: 'delete', key: STATUS_COUNTERS_MIGRATED }]);
    const table = otherProcess(api.table);
    const status = createStatusService({
      table,
      clock: systemClock,
      cursors: createCursorSeal(async () => Buffer.alloc(32, 7)),
      countUntold: (tenantId, entities) => countUntold(table, tenantId, entities),
    });
    // Before seeding, the counts are recounted from the entities (and a state filter reads them too).
    expect(await status.board(old.tenantId, { state: 'down' })).toMatchObject({
      total: 2,
      down: 1,
      unknown: 1,
    });
    expect((await status.board(old.tenantId, { state: 'down' })).entities).toHaveLength(1);
    const deps = { table, tenants: api.app.tenants, logger: silentLogger, clock: systemClock };
    expect(await migrateStatusCounters(deps)).toBeGreaterThanOrEqual(1);
    await expectExact(old);
    expect(await status.board(old.tenantId, { state: 'down', limit: 10 })).toMatchObject({
      total: 2,
      down: 1,
    });
    // Again: the marker ends it at once; without the marker, seeded tenants are skipped.
    expect(await migrateStatusCounters(deps)).toBe(0);
    await api.table.transact([{ type: 'delete', key: STATUS_COUNTERS_MIGRATED }]);
    expect(await migrateStatusCounters({ ...deps, table: otherProcess(api.table) })).toBe(0);
    await expectExact(old);
    await expectExact(tenant);
  });
});
