import { describe, expect, it } from 'vitest';
import { createBackoff, createNudge, pause } from '../../lib/agent/waits.ts';

describe('the agent’s waits', () => {
  it('backs off between half and the whole of a doubling delay, capped, honouring Retry-After up to the cap', () => {
    const low = createBackoff({ baseMs: 500, maxMs: 30_000, random: () => 0 });
    const high = createBackoff({ baseMs: 500, maxMs: 30_000, random: () => 1 });

    expect([1, 2, 3, 4].map((n) => low.delayMs(n))).toEqual([250, 500, 1000, 2000]);
    expect([1, 2, 3, 4].map((n) => high.delayMs(n))).toEqual([500, 1000, 2000, 4000]);
    expect(high.delayMs(50)).toBe(30_000);
    expect(low.delayMs(1, 10_000)).toBe(10_000);
    expect(low.delayMs(1, 120_000)).toBe(30_000);
  });

  it('wakes a pause and a nudge wait at once when stopped', async () => {
    const stop = new AbortController();
    const waits = Promise.all([pause(60_000, stop.signal), createNudge().wait(stop.signal)]);

    stop.abort();

    await expect(waits).resolves.toEqual([undefined, undefined]);
  });
});
