import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { newCheck, newEntity, quietTcpCheck } from '../checks/check-fixtures.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { runCellSlot } from '../support/cell-fixtures.ts';

/**
 * "Last 24 h" and "Last 7 days" count the same results for a check younger than a day (issue 37:
 * 79 vs 63). The 7-day fold of today read a cell's not-yet-rolled-up buckets from its slots for the
 * last two buckets of the day (23:50, 23:55), not the bucket in progress, so that bucket's results
 * were missing from every daily window; the fold now ends with the bucket in progress.
 */
describe.each(runtimes)('uptime windows of a new check agree ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  const T0 = Date.parse('2026-06-01T10:00:20.000Z');
  const clock = createFakeClock(T0);
  let checkId = '';

  beforeAll(async () => {
    api = await start({ clock, scheduler: false });
    const entityId = await newEntity(api);
    checkId = await newCheck(api, quietTcpCheck(entityId, { interval_seconds: 60 }));
    for (let i = 0; i < 79; i += 1) {
      const slotMs = Date.parse('2026-06-01T10:01:00.000Z') + i * 60_000;
      clock.set(slotMs + 500);
      await runCellSlot(api, { slotMs, answers: { [checkId]: true }, clock });
    }
  }, 120_000);
  afterAll(async () => {
    await api?.close();
  });

  it('counts every result in both, the bucket in progress too', async () => {
    const w24 = await api.request('GET', `/v1/checks/${checkId}/uptime?window=24h`, { key: api.adminKey });
    const w7 = await api.request('GET', `/v1/checks/${checkId}/uptime?window=7d`, { key: api.adminKey });
    expect([w24.body.results, w7.body.results]).toEqual([79, 79]);
  });
});
