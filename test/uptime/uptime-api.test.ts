import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../lib/domain/principal.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { newCheck, newEntity, quietPushCheck, record } from '../checks/check-fixtures.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { enableToolsets } from '../support/toolsets.ts';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const start = Date.parse('2026-01-01T00:00:00.000Z');
const at = (day: number, hour: number) => start + day * DAY + hour * HOUR;

/**
 * 90 days of a push check with results every 6 hours and two known outages, and a second check of
 * the same entity created on day 80 with one outage: exact figures for every window.
 */
describe.each(runtimes)('uptime and SLOs ($runtime)', ({ start: startHarness }) => {
  const clock = createFakeClock(start);
  let api: ApiHarness;
  let entityPath = '';
  let entityId = '';
  let first = '';
  let second = '';

  const result = async (checkId: string, day: number, hour: number, success: boolean) => {
    clock.set(at(day, hour));
    await record(api, checkId, { success, checkedAtMs: at(day, hour) });
  };

  beforeAll(async () => {
    api = await startHarness({ clock });
    entityId = await newEntity(api, { blueprint: 'uptime-svc' });
    first = await newCheck(api, quietPushCheck(entityId, { failure_threshold: 1, slo_target: 0.99 }));
    const check = (await api.request('GET', `/v1/checks/${first}`, { key: api.adminKey })).body;
    entityPath = `/v1/blueprints/uptime-svc/entities/${check.entity_slug}`;
    const down = new Set([`10/6`, `10/12`, `50/18`, `80/6`, `80/12`, `80/18`]);
    for (let day = 0; day < 90; day += 1) {
      if (day === 80) {
        clock.set(at(80, 0));
        second = await newCheck(api, quietPushCheck(entityId, { failure_threshold: 1 }));
      }
      for (const hour of [0, 6, 12, 18]) {
        const failing = down.has(`${day}/${hour}`);
        await result(first, day, hour, !(failing && day !== 80));
        if (day >= 80) await result(second, day, hour, !(failing && day === 80));
        if (failing || down.has(`${day}/${hour - 6}`) || (hour === 0 && down.has(`${day - 1}/18`))) {
          await api.drainChanges();
        }
      }
    }
    clock.set(at(89, 20));
  }, 300_000);
  afterAll(async () => {
    await api?.close();
  });

  const get = async (path: string) => {
    const res = await api.request('GET', path, { key: api.adminKey });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };

  it('answers a check over 90 days: two outages, exact downtime, MTTR and error budget', async () => {
    const u = await get(`/v1/checks/${first}/uptime?window=90d`);
    expect(u).toMatchObject({
      window: '90d',
      results: 360,
      failures: 3,
      uptime_ratio: 0.99167,
      downtime_seconds: 18 * 3600,
      incidents: 2,
      mttr_seconds: 9 * 3600,
      slo_target: 0.99,
      error_budget_remaining: 0.167,
    });
    expect(u.latency_ms.p50).toBe(u.latency_ms.p99);
    expect(Math.abs(u.latency_ms.p50 - 10)).toBeLessThanOrEqual(1);
    // Each day of the window, oldest first: the outage days below 1, the others 1.
    expect(u.days).toHaveLength(90);
    expect(u.days[0]).toEqual({ date: '2026-01-01', uptime_ratio: 1 });
    expect(u.days[10]).toEqual({ date: '2026-01-11', uptime_ratio: 0.5 });
    expect(u.days[50]).toEqual({ date: '2026-02-20', uptime_ratio: 0.75 });
    expect(u.days[89]).toEqual({ date: '2026-03-31', uptime_ratio: 1 });
    expect(u.days.filter((d: { uptime_ratio: number }) => d.uptime_ratio < 1)).toHaveLength(2);
  });

  it('answers the shorter windows from the same history', async () => {
    expect(await get(`/v1/checks/${first}/uptime?window=30d`)).toMatchObject({
      results: 120,
      failures: 0,
      uptime_ratio: 1,
      downtime_seconds: 0,
      incidents: 0,
      mttr_seconds: null,
      error_budget_remaining: 1,
    });
    const week = await get(`/v1/checks/${first}/uptime?window=7d`);
    expect(week).toMatchObject({ results: 28, failures: 0 });
    expect(week.days.map((d: { date: string }) => d.date)).toEqual([
      '2026-03-25',
      '2026-03-26',
      '2026-03-27',
      '2026-03-28',
      '2026-03-29',
      '2026-03-30',
      '2026-03-31',
    ]);
    const day = await get(`/v1/checks/${first}/uptime`);
    expect(day).toMatchObject({ window: '24h', results: 4, failures: 0 });
    expect(day).not.toHaveProperty('days');
  });

  it('counts a check created mid-window from its creation only, without an SLO', async () => {
    const u = await get(`/v1/checks/${second}/uptime?window=90d`);
    expect(u).toMatchObject({
      results: 40,
      failures: 3,
      uptime_ratio: 0.925,
      downtime_seconds: 18 * 3600,
      incidents: 1,
      mttr_seconds: 18 * 3600,
    });
    expect(u).not.toHaveProperty('slo_target');
    expect(u).not.toHaveProperty('error_budget_remaining');
  });

  it('sums an entity over its checks, with downtime from its incidents', async () => {
    const u = await get(`${entityPath}/uptime?window=90d`);
    // Day 80 (2026-03-22): the first check up 4 of 4, the second 1 of 4.
    expect(u.days[80]).toEqual({ date: '2026-03-22', uptime_ratio: 0.625 });
    expect(u).toMatchObject({
      results: 400,
      failures: 6,
      uptime_ratio: 0.985,
      downtime_seconds: 36 * 3600,
      incidents: 3,
      mttr_seconds: 12 * 3600,
    });
  });

  it('keeps slo_target on the check (create, PUT, response) and refuses one outside (0, 1)', async () => {
    expect((await get(`/v1/checks/${first}`)).slo_target).toBe(0.99);
    expect((await get(`/v1/checks/${second}`)).slo_target).toBeNull();
    const put = await api.request('PUT', `/v1/checks/${second}`, {
      key: api.adminKey,
      body: { slo_target: 0.999 },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body.slo_target).toBe(0.999);
    for (const bad of [0, 1, 1.5, -0.1]) {
      const res = await api.request('PUT', `/v1/checks/${second}`, {
        key: api.adminKey,
        body: { slo_target: bad },
      });
      expect(res.status, String(bad)).toBe(400);
    }
    const res = await api.request('GET', `/v1/checks/${first}/uptime?window=1y`, { key: api.adminKey });
    expect(res.status).toBe(400);
  });

  it('answers 404 for another tenant and through MCP get_uptime for entity or check', async () => {
    const other = await api.createTenant('uptime-other');
    const res = await api.request('GET', `/v1/checks/${first}/uptime`, { key: other.key });
    expect(res.status).toBe(404);
    await enableToolsets(api, api.adminKey);
    const caller: Principal = {
      tenantId: api.tenantId,
      userId: 'usr_agent',
      keyId: 'key_viewer',
      role: 'admin',
      readOnly: true,
    };
    const answer = await api.app.tools.call(caller, 'get_uptime', { entity_id: entityId, window: '90d' });
    expect(answer?.isError, JSON.stringify(answer)).toBeFalsy();
    expect(answer?.structuredContent).toMatchObject({
      entity_id: entityId,
      uptime: { results: 400, failures: 6 },
    });
  });
});
