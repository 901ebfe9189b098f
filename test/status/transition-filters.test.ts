import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newCheck, newEntity, quietPushCheck, record } from '../checks/check-fixtures.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';

interface Transition {
  entity_id: string;
  from_state: string;
  to_state: string;
}

/** GET /v1/status/transitions?entity_id= and first_results=exclude, in both runtimes. */
describe.each(runtimes)('the transition feed filters ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let tenant: { tenantId: string; key: string };
  const entities: string[] = [];
  const get = (path: string, key = tenant.key) => api.request('GET', path, { key });
  const base = Date.now() - 600_000;

  beforeAll(async () => {
    api = await start();
    tenant = await api.createTenant('Filters');
    // Six entities get their first result (unknown -> up); the first two then go down and up again.
    for (let i = 0; i < 6; i += 1) {
      const entityId = await newEntity(api, { key: tenant.key, name: `svc ${i}` });
      entities.push(entityId);
      const checkId = await newCheck(api, quietPushCheck(entityId, { failure_threshold: 1 }), tenant.key);
      const tenantId = tenant.tenantId;
      await record(api, checkId, { success: true, checkedAtMs: base + i * 1000, tenantId });
      if (i < 2) {
        await record(api, checkId, { success: false, checkedAtMs: base + 60_000 + i * 1000, tenantId });
        await record(api, checkId, { success: true, checkedAtMs: base + 120_000 + i * 1000, tenantId });
      }
    }
  });
  afterAll(async () => {
    await api.close();
  });

  it("lists one entity's changes with entity_id, newest first", async () => {
    const res = await get(`/v1/status/transitions?entity_id=${entities[0]}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.transitions.map((t: Transition) => [t.entity_id, t.from_state, t.to_state])).toEqual([
      [entities[0], 'down', 'up'],
      [entities[0], 'up', 'down'],
      [entities[0], 'unknown', 'up'],
    ]);
    expect(res.body.next_cursor).toBeNull();
  });

  it('pages one entity with a cursor bound to that filter', async () => {
    const first = await get(`/v1/status/transitions?entity_id=${entities[1]}&limit=2`);
    expect(first.body.transitions).toHaveLength(2);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const cursor = encodeURIComponent(first.body.next_cursor);
    const next = await get(`/v1/status/transitions?entity_id=${entities[1]}&limit=2&cursor=${cursor}`);
    expect(next.body.transitions.map((t: Transition) => t.from_state)).toEqual(['unknown']);
    expect(next.body.next_cursor).toBeNull();
    // The same cursor under another filter is refused, not misread.
    const other = await get(`/v1/status/transitions?entity_id=${entities[0]}&cursor=${cursor}`);
    expect(other.status).toBe(400);
  });

  it('answers 400 for a malformed entity_id', async () => {
    const res = await get('/v1/status/transitions?entity_id=not-an-id');
    expect(res.status).toBe(400);
    expect(res.text).toContain('entity_id');
  });

  it("is empty for another tenant's entity", async () => {
    const other = await api.createTenant('Other');
    const res = await get(`/v1/status/transitions?entity_id=${entities[0]}`, other.key);
    expect(res.body).toEqual({ transitions: [], next_cursor: null });
  });

  it('leaves out first results with first_results=exclude, and keeps them by default', async () => {
    const all = (await get('/v1/status/transitions?limit=200')).body.transitions as Transition[];
    expect(all.filter((t) => t.from_state === 'unknown')).toHaveLength(6);
    const res = await get('/v1/status/transitions?first_results=exclude');
    expect(res.status, res.text).toBe(200);
    const kept = res.body.transitions as Transition[];
    expect(kept.map((t) => [t.entity_id, t.from_state, t.to_state])).toEqual([
      [entities[1], 'down', 'up'],
      [entities[1], 'up', 'down'],
      [entities[0], 'down', 'up'],
      [entities[0], 'up', 'down'],
    ]);
    expect(new Set(kept.map((t) => t.entity_id))).toEqual(new Set(entities.slice(0, 2)));
  });
});
