import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newestScreenshots } from '../../lib/probes/outcome.ts';

/**
 * A browser run's screenshots carried inline (a draft's answer, the synchronous browser function's):
 * the newest first within the bound, so the failing step's (the last taken) is kept before any
 * other; in step order; the rest counted. The generated case prints its seed; replay with
 * `VIGIL_MODEL_SEED=<seed> npm exec -- vitest run <this file>`.
 */
describe('the screenshots an answer carries inline', () => {
  const shot = (step: number, chars: number) => ({ step, jpeg: 'x'.repeat(chars) });

  it('keeps the newest within the bound, in step order, and counts the rest', () => {
    const shots = [shot(0, 40), shot(1, 30), shot(2, 50), shot(3, 20)];

    expect(newestScreenshots(shots, 100)).toEqual({
      kept: [shot(1, 30), shot(2, 50), shot(3, 20)],
      leftOut: 1,
    });
    expect(newestScreenshots(shots, 75)).toEqual({ kept: [shot(2, 50), shot(3, 20)], leftOut: 2 });
    // An older smaller one still fits where a newer larger one did not.
    expect(newestScreenshots(shots, 65)).toEqual({ kept: [shot(1, 30), shot(3, 20)], leftOut: 2 });
    expect(newestScreenshots([], 10)).toEqual({ kept: [], leftOut: 0 });
  });

  it('never passes the bound, keeps the last shot whenever it fits, and loses none uncounted (generated)', () => {
    const seed = process.env.VIGIL_MODEL_SEED ? Number(process.env.VIGIL_MODEL_SEED) : Date.now() % 2 ** 31;
    console.log(`inline screenshots: seed ${seed}`);
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 60 }), { maxLength: 12 }),
        fc.integer({ min: 0, max: 300 }),
        (sizes, bound) => {
          const shots = sizes.map((chars, step) => shot(step, chars));
          const { kept, leftOut } = newestScreenshots(shots, bound);
          expect(kept.reduce((sum, s) => sum + s.jpeg.length, 0)).toBeLessThanOrEqual(bound);
          expect(kept.length + leftOut).toBe(shots.length);
          expect(kept.map((s) => s.step)).toEqual([...kept.map((s) => s.step)].sort((a, b) => a - b));
          const last = shots.at(-1);
          if (last && last.jpeg.length <= bound) expect(kept.at(-1)).toEqual(last);
        },
      ),
      { seed, numRuns: 200 },
    );
  });
});
