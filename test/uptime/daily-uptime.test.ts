import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDaysBetween } from '../../lib/checks/items/day-rollup-items.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { entityDailyUptime } from '../../lib/uptime/daily-uptime.ts';
import {
  newCheck,
  newEntity,
  quietPushCheck,
  record,
  recordSlot,
  soloTcpCheck,
} from '../checks/check-fixtures.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';

const DAY = 86_400_000;
const start = Date.parse('2026-03-01T00:00:00.000Z');
const at = (day: number, hour: number) => start + day * DAY + hour * 3_600_000;

describe.each(runtimes)('entityDailyUptime ($runtime)', ({ start: startHarness }) => {
  const clock = createFakeClock(start);
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startHarness({ clock });
  }, 120_000);
  afterAll(async () => {
    await api?.close();
  });

  it('answers each UTC day oldest first from daily items and today folded, null without results', async () => {
    clock.set(start);
    const pushEntity = await newEntity(api);
    const push = await newCheck(api, quietPushCheck(pushEntity));
    const cellEntity = await newEntity(api);
    const pull = await newCheck(api, soloTcpCheck(cellEntity));
    const empty = await newEntity(api);
    // Day 0: 4/4; day 1: 3/4; day 2: nothing; day 3: 2/4; day 4 (today): 1/2 so far.
    const plan: [number, boolean[]][] = [
      [0, [true, true, true, true]],
      [1, [true, false, true, true]],
      [3, [false, true, false, true]],
      [4, [true, false]],
    ];
    for (const [day, outcomes] of plan) {
      for (const [i, success] of outcomes.entries()) {
        clock.set(at(day, 2 + i * 5));
        await record(api, push, { success, checkedAtMs: clock.now() });
        await recordSlot(api, pull, { success, checkedAtMs: clock.now(), latency_ms: 30 });
      }
    }
    clock.set(at(4, 20));
    const answer = await entityDailyUptime(
      { table: api.table, clock },
      api.tenantId,
      [pushEntity, cellEntity, empty],
      6,
    );
    const expected = [
      { date: '2026-02-28', uptime_ratio: null },
      { date: '2026-03-01', uptime_ratio: 1 },
      { date: '2026-03-02', uptime_ratio: 0.75 },
      { date: '2026-03-03', uptime_ratio: null },
      { date: '2026-03-04', uptime_ratio: 0.5 },
      { date: '2026-03-05', uptime_ratio: 0.5 },
    ];
    expect(answer.get(pushEntity)).toEqual(expected);
    expect(answer.get(cellEntity)).toEqual(expected);
    expect(answer.get(empty)).toEqual(expected.map((d) => ({ ...d, uptime_ratio: null })));
    // Closed days were written once each by the recorder (today is still open).
    const days = await checkDaysBetween(api.table, push, '2026-02-01', '2026-03-31');
    expect(days.map((d) => [d.date, d.rollup.total, d.rollup.failures])).toEqual([
      ['2026-03-01', 4, 0],
      ['2026-03-02', 4, 1],
      ['2026-03-04', 4, 2],
    ]);
  }, 120_000);
});
