import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { runCellSlot } from '../support/cell-fixtures.ts';
import { newCheck, newEntity, quietTcpCheck } from './check-fixtures.ts';

const TRANSITION_KEYS = [
  'blueprint_slug',
  'check_id',
  'created_at',
  'entity_id',
  'entity_name',
  'entity_slug',
  'from_state',
  'id',
  'kind',
  'reason',
  'to_state',
];

/** SPEC.md "States and transitions", its example with threshold 3, driven through the check's cell slots. */
describe.each(runtimes)('check transitions ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let tenant: { tenantId: string; key: string };
  let entityId: string;
  let checkId: string;
  let at = Date.now() - 600_000;
  const get = (path: string) => api.request('GET', path, { key: tenant.key });
  const step = async (success: boolean) => {
    at += 1000;
    await runCellSlot(api, { slotMs: at, answers: { [checkId]: success }, tenantId: tenant.tenantId });
  };
  const check = async () => (await get(`/v1/checks/${checkId}`)).body;
  const board = async () => (await get('/v1/status')).body;
  const moves = (list: { from_state: string; to_state: string }[]) =>
    list.map((t) => `${t.from_state}->${t.to_state}`);

  beforeAll(async () => {
    api = await start();
    tenant = await api.createTenant('Soylent');
    entityId = await newEntity(api, { key: tenant.key, name: 'Checkout' });
    checkId = await newCheck(api, quietTcpCheck(entityId, { failure_threshold: 3 }), tenant.key);
  });
  afterAll(async () => {
    await api.close();
  });

  it('starts unknown with no transitions', async () => {
    expect(await check()).toMatchObject({ state: 'unknown', consecutive_failures: 0, last_result_at: null });
    expect((await get(`/v1/checks/${checkId}/transitions`)).body).toEqual({
      transitions: [],
      next_cursor: null,
    });
    expect((await board()).entities[0]).toMatchObject({ id: entityId, state: 'unknown' });
  });

  it('moves down at the third consecutive failure, not before, and up again on the next success', async () => {
    await step(true);
    expect(await check()).toMatchObject({ state: 'up', consecutive_failures: 0 });
    await step(false);
    await step(false);
    expect(await check()).toMatchObject({ state: 'up', consecutive_failures: 2 });
    expect(await board()).toMatchObject({ up: 1, down: 0, entities: [{ state: 'up' }] });

    await step(false);
    expect(await check()).toMatchObject({ state: 'down', consecutive_failures: 3 });
    expect(await board()).toMatchObject({
      total: 1,
      up: 0,
      degraded: 0,
      down: 1,
      unknown: 0,
      entities: [
        { id: entityId, state: 'down', checks: [{ id: checkId, check_type: 'tcp', state: 'down' }] },
      ],
    });

    await step(true);
    expect(await check()).toMatchObject({ state: 'up', consecutive_failures: 0 });
    expect(await board()).toMatchObject({ up: 1, down: 0, entities: [{ state: 'up' }] });
  });

  it("lists the check's own transitions newest first", async () => {
    const res = await get(`/v1/checks/${checkId}/transitions`);
    expect(res.status).toBe(200);
    expect(res.body.next_cursor).toBeNull();
    const list = res.body.transitions;
    expect(moves(list)).toEqual(['down->up', 'up->down', 'unknown->up']);
    expect(Object.keys(list[0]).sort()).toEqual(TRANSITION_KEYS);
    for (const t of list) expect(t).toMatchObject({ kind: 'check', check_id: checkId, entity_id: entityId });
    expect(list[1].reason).toBe('3 consecutive failures (threshold 3)');
    expect(list[0].id).toMatch(/^trn_/);
  });

  it('lists the entity transitions in the tenant feed of GET /v1/status/transitions', async () => {
    const res = await get('/v1/status/transitions');
    expect(res.status).toBe(200);
    expect(moves(res.body.transitions)).toEqual(['down->up', 'up->down', 'unknown->up']);
    for (const t of res.body.transitions) {
      expect(t).toMatchObject({ kind: 'entity', entity_id: entityId, check_id: checkId });
    }
    expect(res.body.next_cursor).toBeNull();
  });

  it('pages transitions with limit and cursor', async () => {
    const first = await get(`/v1/checks/${checkId}/transitions?limit=2`);
    expect(moves(first.body.transitions)).toEqual(['down->up', 'up->down']);
    const second = await get(
      `/v1/checks/${checkId}/transitions?limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`,
    );
    expect(moves(second.body.transitions)).toEqual(['unknown->up']);
    expect(second.body.next_cursor).toBeNull();
    const feed = await get('/v1/status/transitions?limit=1');
    const rest = await get(
      `/v1/status/transitions?limit=5&cursor=${encodeURIComponent(feed.body.next_cursor)}`,
    );
    expect(moves([...feed.body.transitions, ...rest.body.transitions])).toEqual([
      'down->up',
      'up->down',
      'unknown->up',
    ]);
  });

  it('rejects a limit above 200, and a cursor of another list, with 400', async () => {
    expect((await get(`/v1/checks/${checkId}/transitions?limit=201`)).status).toBe(400);
    expect((await get('/v1/status/transitions?limit=201')).status).toBe(400);
    expect((await get(`/v1/checks/${checkId}/transitions?limit=200`)).status).toBe(200);
    const checkCursor = (await get(`/v1/checks/${checkId}/transitions?limit=1`)).body.next_cursor;
    const feedCursor = (await get('/v1/status/transitions?limit=1')).body.next_cursor;
    const crossed = [
      await get(`/v1/status/transitions?cursor=${encodeURIComponent(checkCursor)}`),
      await get(`/v1/checks/${checkId}/transitions?cursor=${encodeURIComponent(feedCursor)}`),
      await get(`/v1/checks/${checkId}/results?cursor=${encodeURIComponent(checkCursor)}`),
    ];
    for (const res of crossed) {
      expect(res.status).toBe(400);
      expect(res.body.details).toEqual([{ path: 'cursor', message: expect.any(String) }]);
    }
  });

  it("never shows one tenant's transitions to another", async () => {
    const res = await api.request('GET', '/v1/status/transitions', { key: api.adminKey });
    expect(res.body.transitions.map((t: { entity_id: string }) => t.entity_id)).not.toContain(entityId);
    const feedCursor = (await get('/v1/status/transitions?limit=1')).body.next_cursor;
    const stolen = await api.request(
      'GET',
      `/v1/status/transitions?cursor=${encodeURIComponent(feedCursor)}`,
      {
        key: api.adminKey,
      },
    );
    expect(stolen.status).toBe(400);
  });
});
