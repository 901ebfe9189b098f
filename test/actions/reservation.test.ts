import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExecutionStore } from '../../lib/actions/items/execution-store.ts';
import { newId } from '../../lib/platform/ids.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';

/** The send lease on each engine: one holder at a time, taken over once it runs out. */
describe.each(runtimes)('the execution send lease on the $runtime runtime', ({ start }) => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await start();
  });
  afterAll(async () => {
    await api?.close();
  });

  it('is held by one caller until it runs out, then taken over', async () => {
    const store = createExecutionStore(api.table);
    const id = newId('exe');
    // An hour ahead: a lease is a TTL'd item, and the local runtime's retention sweep (it runs on
    // the scheduler's first tick, while this test may run) deletes items whose time has passed.
    const t0 = Math.ceil(Date.now() / 1000) * 1000 + 3_600_000;

    expect(await store.reserve(id, t0, t0 + 5000)).toBe(true);
    expect(await store.reserve(id, t0 + 1000, t0 + 6000)).toBe(false);
    expect(await store.reserve(id, t0 + 5000, t0 + 10_000)).toBe(false);
    expect(await store.reserve(id, t0 + 5001, t0 + 10_001)).toBe(true);
    expect(await store.reserve(id, t0 + 6000, t0 + 11_000)).toBe(false);
  });

  it('answers concurrent callers with exactly one holder', async () => {
    const store = createExecutionStore(api.table);
    const id = newId('exe');
    const t0 = Date.now();
    const won = await Promise.all(Array.from({ length: 8 }, () => store.reserve(id, t0, t0 + 5000)));
    expect(won.filter(Boolean)).toHaveLength(1);
  });
});
