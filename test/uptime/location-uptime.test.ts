import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocationDecider } from '../../lib/checks/results/location-decision.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import { newCheck, newEntity, quietTcpCheck } from '../checks/check-fixtures.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const today = Date.parse('2026-03-10T00:00:00.000Z');
const LOCATIONS = ['default', 'office', 'eu-west-1'];

/**
 * Uptime per location of a check probed from three locations (quorum 2): each location's reports
 * go through the location decider as agents' and workers' do, and GET .../uptime answers each
 * location's own counts beside the combined figures of the decided results.
 */
describe.each(runtimes)('uptime per location ($runtime)', ({ start: startHarness }) => {
  const clock = createFakeClock(today - 20 * DAY);
  let api: ApiHarness;
  let located = '';
  let plain = '';

  /** One slot: each listed location reports (up or down) through the decider; then the deadline decides. */
  const slot = async (slotMs: number, reports: Record<string, boolean>) => {
    const decider = createLocationDecider({
      table: api.table,
      recorder: api.app.recorder,
      checks: api.app.checks,
      tenants: api.app.tenants,
      clock,
      logger: silentLogger,
    });
    clock.set(slotMs + 1000);
    for (const [location, up] of Object.entries(reports)) {
      const outcome = await decider.report({
        tenantId: api.tenantId,
        checkId: located,
        slotMs,
        location,
        result: {
          success: up,
          status_code: up ? 200 : 503,
          latency_ms: 20,
          error_message: up ? '' : 'HTTP 503',
          checked_at: new Date(slotMs).toISOString(),
        },
      });
      expect(outcome).toBe('recorded');
    }
    clock.set(slotMs + 10 * 60_000);
    await decider.decide(api.tenantId, located, slotMs, true);
    return decider;
  };

  beforeAll(async () => {
    api = await startHarness({ clock });
    for (const name of ['office', 'eu-west-1']) {
      const res = await api.request('POST', '/v1/locations', {
        key: api.adminKey,
        body: { name, kind: 'agent' },
      });
      expect(res.status, res.text).toBe(201);
    }
    const entityId = await newEntity(api, { blueprint: 'located-svc' });
    located = await newCheck(
      api,
      quietTcpCheck(entityId, { interval_seconds: 60, locations: LOCATIONS, quorum: 2 }),
    );
    plain = await newCheck(api, quietTcpCheck(entityId));
    // 12 days ago: all up (in the 30d window only).
    await slot(today - 12 * DAY + 8 * HOUR, { default: true, office: true, 'eu-west-1': true });
    // Yesterday morning, before the 24 h window: eu-west-1 alone down, the slot is up.
    await slot(today - DAY + 8 * HOUR, { default: true, office: true, 'eu-west-1': false });
    // Today: two down (the slot is down), then only default reports (inconclusive: no state moves).
    await slot(today + 9 * HOUR, { default: false, office: false, 'eu-west-1': true });
    const decider = await slot(today + 10 * HOUR, { default: true });
    // A location's second report of a slot is a duplicate and counts nothing.
    const again = await decider.report({
      tenantId: api.tenantId,
      checkId: located,
      slotMs: today + 9 * HOUR,
      location: 'office',
      result: {
        success: true,
        status_code: 200,
        latency_ms: 20,
        error_message: '',
        checked_at: new Date(today + 9 * HOUR).toISOString(),
      },
    });
    expect(again).toBe('duplicate');
    clock.set(today + 12 * HOUR);
  }, 120_000);
  afterAll(async () => {
    await api?.close();
  });

  const uptime = async (checkId: string, window: string) => {
    const res = await api.request('GET', `/v1/checks/${checkId}/uptime?window=${window}`, {
      key: api.adminKey,
    });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };

  it('answers each location its own reports over the window, the combined figures from decided slots', async () => {
    const week = await uptime(located, '7d');
    expect(week.locations).toEqual([
      { location: 'default', uptime_percent: 66.667, up: 2, total: 3 },
      { location: 'office', uptime_percent: 50, up: 1, total: 2 },
      { location: 'eu-west-1', uptime_percent: 50, up: 1, total: 2 },
    ]);
    // Combined: the decided slots (one up, one down); the inconclusive one is neither.
    expect(week).toMatchObject({ results: 2, failures: 1, uptime_ratio: 0.5 });
  });

  it('counts the first and last days of a window whole', async () => {
    // 24 h from today 12:00 starts yesterday 12:05: yesterday's 08:00 slot is in its day's counts.
    const day = await uptime(located, '24h');
    expect(day).toMatchObject({ results: 1, failures: 1 });
    expect(day.locations).toEqual([
      { location: 'default', uptime_percent: 66.667, up: 2, total: 3 },
      { location: 'office', uptime_percent: 50, up: 1, total: 2 },
      { location: 'eu-west-1', uptime_percent: 50, up: 1, total: 2 },
    ]);
    const month = await uptime(located, '30d');
    expect(month.locations).toEqual([
      { location: 'default', uptime_percent: 75, up: 3, total: 4 },
      { location: 'office', uptime_percent: 66.667, up: 2, total: 3 },
      { location: 'eu-west-1', uptime_percent: 66.667, up: 2, total: 3 },
    ]);
  });

  it('answers null for a location without reports in the window', async () => {
    clock.set(today + 5 * DAY);
    const later = await uptime(located, '24h');
    expect(later.locations).toEqual(
      LOCATIONS.map((location) => ({ location, uptime_percent: null, up: 0, total: 0 })),
    );
    clock.set(today + 12 * HOUR);
  });

  it('shows no locations for a check probed by the runtime alone', async () => {
    const week = await uptime(plain, '7d');
    expect(week).not.toHaveProperty('locations');
  });
});
