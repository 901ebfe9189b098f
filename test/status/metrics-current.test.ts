import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newCheck, newEntity, quietTcpCheck, recordSlot } from '../checks/check-fixtures.ts';
import { type ApiHarness, bothRuntimes } from '../support/api-harness.ts';

/**
 * Issue 75 point 9: `vigil_check_results_total` counts a pull check's results as their cell slot
 * lands, not when the cell's 5-minute rollup is written (up to five minutes later), on both
 * runtimes; a slot delivered twice is counted once.
 */

const T0 = Date.parse('2030-01-01T00:00:00Z');

const results = async (api: ApiHarness) => {
  const text = (await api.request('GET', '/v1/metrics', { key: api.adminKey })).text;
  const value = (status: string) =>
    Number(new RegExp(`^vigil_check_results_total\\{status="${status}"\\} (\\d+)$`, 'm').exec(text)?.[1]);
  return { success: value('success'), failure: value('failure') };
};

describe.each(bothRuntimes)('vigil_check_results_total is current ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let checkId = '';

  beforeAll(async () => {
    api = await start({ scheduler: false });
    const entityId = await newEntity(api, { blueprint: 'web' });
    // A minute's interval: its cell rolls its results up per 5-minute bucket.
    checkId = await newCheck(api, quietTcpCheck(entityId, { interval_seconds: 60 }));
  }, 120_000);
  afterAll(() => api?.close());

  it('counts each slot’s results as soon as the slot is stored, inside its open bucket', async () => {
    expect(await results(api)).toEqual({ success: 0, failure: 0 });
    await recordSlot(api, checkId, { success: true, checkedAtMs: T0 });
    expect(await results(api)).toEqual({ success: 1, failure: 0 });
    await recordSlot(api, checkId, { success: false, checkedAtMs: T0 + 60_000 });
    expect(await results(api)).toEqual({ success: 1, failure: 1 });
    // The next bucket's first slot writes the first bucket's rollup: nothing is counted again.
    await recordSlot(api, checkId, { success: true, checkedAtMs: T0 + 5 * 60_000 });
    expect(await results(api)).toEqual({ success: 2, failure: 1 });
  });
});
