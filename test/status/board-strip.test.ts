import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  newCheck,
  newEntity,
  quietPushCheck,
  record,
  recordSlot,
  soloTcpCheck,
} from '../checks/check-fixtures.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';

interface Row {
  id: string;
  recent?: { at: string; state: string }[];
  uptime_24h?: number | null;
  results_24h?: number;
}

/** GET /v1/status?include=recent: each entity's recent-results strip, in both runtimes. */
describe.each(runtimes)('the status board strip ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let tenant: { tenantId: string; key: string };
  const ids = { mixed: '', pull: '', quiet: '', day: '' };
  const get = (path: string) => api.request('GET', path, { key: tenant.key });
  const base = Date.parse('2026-01-01T00:00:00.000Z');
  const iso = (ms: number) => new Date(ms).toISOString();

  beforeAll(async () => {
    api = await start({ scheduler: false });
    tenant = await api.createTenant('Strips');
    const tenantId = tenant.tenantId;
    // Two push checks of one entity: at the same time the worst result wins.
    ids.mixed = await newEntity(api, { key: tenant.key, name: 'mixed' });
    const a = await newCheck(api, quietPushCheck(ids.mixed), tenant.key);
    const b = await newCheck(api, quietPushCheck(ids.mixed), tenant.key);
    await record(api, a, { success: true, checkedAtMs: base, tenantId });
    await record(api, b, { success: false, checkedAtMs: base, tenantId });
    await record(api, a, { success: true, checkedAtMs: base + 60_000, tenantId });
    // A pull check: its results are its cell's slots; 35 of them, the strip keeps the newest 30.
    ids.pull = await newEntity(api, { key: tenant.key, name: 'pull' });
    const pull = await newCheck(api, soloTcpCheck(ids.pull), tenant.key);
    for (let i = 0; i < 35; i += 1) {
      await recordSlot(api, pull, { success: i !== 34, checkedAtMs: base + i * 60_000, tenantId });
    }
    ids.quiet = await newEntity(api, { key: tenant.key, name: 'quiet' });
    await newCheck(api, quietPushCheck(ids.quiet), tenant.key);
    // Results of the last 24 h across two push checks and a pull check (its cell's slots), and a
    // failure from 25 h ago that the uptime leaves out: 5 results, 1 failure.
    ids.day = await newEntity(api, { key: tenant.key, name: 'day' });
    const now = Date.now();
    const one = await newCheck(api, quietPushCheck(ids.day), tenant.key);
    const two = await newCheck(api, quietPushCheck(ids.day), tenant.key);
    const pulled = await newCheck(api, soloTcpCheck(ids.day), tenant.key);
    await record(api, one, { success: false, checkedAtMs: now - 25 * 3_600_000, tenantId });
    await record(api, one, { success: true, checkedAtMs: now - 2 * 3_600_000, tenantId });
    await record(api, one, { success: true, checkedAtMs: now - 60_000, tenantId });
    await record(api, two, { success: true, checkedAtMs: now - 90_000, tenantId });
    await record(api, two, { success: false, checkedAtMs: now - 30_000, tenantId });
    await recordSlot(api, pulled, { success: true, checkedAtMs: now - 180_000, tenantId });
  }, 120_000);
  afterAll(async () => {
    await api.close();
  });

  const board = async () => {
    const res = await get('/v1/status?limit=50&include=recent');
    expect(res.status, res.text).toBe(200);
    return new Map((res.body.entities as Row[]).map((e) => [e.id, e.recent]));
  };
  const uptimes = async () => {
    const res = await get('/v1/status?limit=50&include=recent');
    expect(res.status, res.text).toBe(200);
    return new Map(
      (res.body.entities as Row[]).map((e) => [
        e.id,
        { uptime_24h: e.uptime_24h, results_24h: e.results_24h },
      ]),
    );
  };

  it("carries the 24 h uptime across the entity's checks, leaving out older results", async () => {
    const found = await uptimes();
    expect(found.get(ids.day)).toEqual({ uptime_24h: 0.8, results_24h: 5 });
    // Every result of these is from 2026-01-01: none in the last 24 h.
    expect(found.get(ids.mixed)).toEqual({ uptime_24h: null, results_24h: 0 });
    expect(found.get(ids.pull)).toEqual({ uptime_24h: null, results_24h: 0 });
    expect(found.get(ids.quiet)).toEqual({ uptime_24h: null, results_24h: 0 });
  });

  it("merges an entity's checks per time, worst first, oldest first", async () => {
    expect((await board()).get(ids.mixed)).toEqual([
      { at: iso(base), state: 'down' },
      { at: iso(base + 60_000), state: 'up' },
    ]);
  });

  it("keeps a pull check's newest 30 slots", async () => {
    const strip = (await board()).get(ids.pull) ?? [];
    expect(strip).toHaveLength(30);
    expect(strip[0]).toEqual({ at: iso(base + 5 * 60_000), state: 'up' });
    expect(strip.at(-1)).toEqual({ at: iso(base + 34 * 60_000), state: 'down' });
  });

  it('is empty for an entity without results, and absent without include', async () => {
    expect((await board()).get(ids.quiet)).toEqual([]);
    const plain = await get('/v1/status?limit=50');
    expect((plain.body.entities as Row[]).every((e) => e.recent === undefined)).toBe(true);
    expect((plain.body.entities as Row[]).every((e) => e.uptime_24h === undefined)).toBe(true);
  });

  it('answers 400 for include without a bounded page', async () => {
    expect((await get('/v1/status?include=recent')).status).toBe(400);
    expect((await get('/v1/status?include=recent&limit=500')).status).toBe(400);
    expect((await get('/v1/status?include=everything&limit=5')).status).toBe(400);
  });
});
