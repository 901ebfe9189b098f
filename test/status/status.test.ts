import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countUntold } from '../../lib/notify/records.ts';
import { createStatusService } from '../../lib/status/status-service.ts';
import { createCursorSeal } from '../../lib/store/cursor-seal.ts';
import type { Key, QueryInput, Table } from '../../lib/store/table.ts';
import { newCheck, newEntity, recordSlot, soloTcpCheck } from '../checks/check-fixtures.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';

interface BoardEntity {
  id: string;
  name: string;
  state: string;
  checks: { id: string; check_type: string; state: string }[];
}

/** A table that remembers the partitions it was asked for. */
function recordingTable(table: Table, partitions: string[]): Table {
  const seen = (key: Key) => partitions.push(key.pk);
  return {
    get: (key, options) => {
      seen(key);
      return table.get(key, options);
    },
    batchGet: (keys) => {
      for (const key of keys) seen(key);
      return table.batchGet(keys);
    },
    query: (input: QueryInput) => {
      partitions.push(input.pk);
      return table.query(input);
    },
    transact: (ops) => table.transact(ops),
    update: (op) => table.update(op),
    close: () => table.close(),
  };
}

/** The board over pull checks, each alone in its cell: their results are their cells' slots. */
describe.each(runtimes)('GET /v1/status ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let tenant: { tenantId: string; key: string };
  const ids: Record<string, string> = {};
  const checks: Record<string, string> = {};
  const get = (path: string, key = tenant.key) => api.request('GET', path, { key });
  const at = Date.now() - 60_000;
  const result = (checkId: string, success: boolean, offset = 0) =>
    recordSlot(api, checkId, { success, checkedAtMs: at + offset, tenantId: tenant.tenantId });

  beforeAll(async () => {
    api = await start();
    tenant = await api.createTenant('Umbrella');
    const entity = async (name: string, blueprint = 'service') => {
      ids[name] = await newEntity(api, { key: tenant.key, name, blueprint });
      return ids[name] ?? '';
    };
    const check = async (name: string, entityId: string, extra: Record<string, unknown> = {}) => {
      checks[name] = await newCheck(
        api,
        soloTcpCheck(entityId, { failure_threshold: 1, ...extra }),
        tenant.key,
      );
      return checks[name] ?? '';
    };
    const allUp = await entity('all-up');
    await result(await check('a1', allUp), true);
    await result(await check('a2', allUp, { check_type: 'tls', config: { host: 'example.com' } }), true);
    const mixed = await entity('mixed', 'database');
    await result(await check('m1', mixed), true);
    await result(await check('m2', mixed), false);
    const down = await entity('down');
    await result(await check('d1', down), false);
    await check('d2', down, { enabled: false });
    await entity('no-checks');
    const silent = await entity('silent');
    await check('s1', silent);
  });
  afterAll(async () => {
    await api.close();
  });

  it('lists every entity with its state and enabled checks, and counts entities per state', async () => {
    const res = await get('/v1/status');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual([
      'degraded',
      'down',
      'entities',
      'next_cursor',
      'total',
      'unknown',
      'untold',
      'up',
    ]);
    // No channel was told anything of these entities.
    expect(res.body.untold).toBe(0);
    // The worst check wins (issue 35): 'mixed' (one check up, one down) is down.
    expect(res.body).toMatchObject({ total: 5, up: 1, degraded: 0, down: 2, unknown: 2 });
    const byName = new Map<string, BoardEntity>(res.body.entities.map((e: BoardEntity) => [e.name, e]));
    expect(byName.get('all-up')).toMatchObject({ id: ids['all-up'], state: 'up' });
    expect(byName.get('all-up')?.checks).toEqual(
      [
        { id: checks.a1, check_type: 'tcp', state: 'up' },
        { id: checks.a2, check_type: 'tls', state: 'up' },
      ].sort((x, y) => String(x.id).localeCompare(String(y.id))),
    );
    expect(byName.get('mixed')).toMatchObject({ state: 'down' });
    expect(byName.get('down')).toMatchObject({
      state: 'down',
      checks: [{ id: checks.d1, check_type: 'tcp', state: 'down' }],
    });
    expect(byName.get('no-checks')).toMatchObject({ state: 'unknown', checks: [] });
    expect(byName.get('silent')).toMatchObject({
      state: 'unknown',
      checks: [{ id: checks.s1, check_type: 'tcp', state: 'unknown' }],
    });
    const mixed = res.body.entities.find((e: BoardEntity) => e.name === 'mixed');
    expect(Object.keys(mixed).sort()).toEqual([
      'blueprint_slug',
      'checks',
      'id',
      'in_maintenance',
      'name',
      'slug',
      'state',
    ]);
    expect(mixed.in_maintenance).toBe(false);
    expect(mixed.blueprint_slug).toBe('database');
  });

  it('follows changes: a recovery moves the entity and the counts', async () => {
    await result(checks.m2 ?? '', true, 1000);
    const res = await get('/v1/status');
    expect(res.body).toMatchObject({ total: 5, up: 2, degraded: 0, down: 1, unknown: 2 });
    const feed = (await get('/v1/status/transitions?limit=1')).body.transitions;
    expect(feed).toEqual([
      expect.objectContaining({
        entity_id: ids.mixed,
        from_state: 'down',
        to_state: 'up',
        kind: 'entity',
      }),
    ]);
  });

  it('drops deleted entities at once', async () => {
    const doomed = await newEntity(api, { key: tenant.key, name: 'doomed', blueprint: 'temp' });
    await result(await newCheck(api, soloTcpCheck(doomed, { failure_threshold: 1 }), tenant.key), false);
    expect((await get('/v1/status')).body).toMatchObject({ total: 6, down: 2 });
    const slug = (await get('/v1/blueprints/temp/entities')).body[0].slug;
    expect(
      (await api.request('DELETE', `/v1/blueprints/temp/entities/${slug}`, { key: tenant.key })).status,
    ).toBe(204);
    expect((await get('/v1/status')).body).toMatchObject({ total: 5, down: 1 });
  });

  it('is empty for a tenant without entities', async () => {
    const fresh = await api.createTenant('Empty');
    expect((await get('/v1/status', fresh.key)).body).toEqual({
      entities: [],
      total: 0,
      up: 0,
      degraded: 0,
      down: 0,
      unknown: 0,
      untold: 0,
      next_cursor: null,
    });
    expect((await get('/v1/status/transitions', fresh.key)).body).toEqual({
      transitions: [],
      next_cursor: null,
    });
  });

  it("never reads a check's or a cell's partition (results, rollups, transitions), however long the history", async () => {
    const partitions: string[] = [];
    const table = recordingTable(api.table, partitions);
    const service = createStatusService({
      table,
      clock: { now: Date.now },
      cursors: createCursorSeal(async () => Buffer.alloc(32)),
      countUntold: (tenantId, entities) => countUntold(table, tenantId, entities),
    });
    const board = await service.board(tenant.tenantId);
    expect(board.total).toBe(5);
    expect(partitions.length).toBeGreaterThan(0);
    expect(partitions.filter((pk) => pk.startsWith('CHECK#') || pk.startsWith('CELLRES#'))).toEqual([]);
  });

  it('lets a read-only key read the status and the feed', async () => {
    const created = await api.request('POST', '/v1/auth/keys', {
      key: tenant.key,
      body: { label: 'wallboard', is_read_only: true },
    });
    const viewer = created.body.key;
    expect((await get('/v1/status', viewer)).body.total).toBe(5);
    expect((await get('/v1/status/transitions', viewer)).status).toBe(200);
  });
});
