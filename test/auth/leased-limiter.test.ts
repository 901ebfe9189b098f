import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLeasedLimiter } from '../../lib/auth/limits/leased-limiter.ts';
import { createStoreRateLimiter, rateWindowAt } from '../../lib/auth/limits/rate-limit-items.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import type { RatePolicy } from '../../lib/platform/rate-limiter.ts';
import { createSqliteTable, openSqliteDatabase } from '../../lib/sqlite/sqlite-table.ts';
import type { Table } from '../../lib/store/table.ts';

/**
 * The coarse tenant counter of pings (lib/auth/limits/leased-limiter.ts) over the table's shared
 * windows (a real SQLite table): api instances each holding leases of several tokens never admit,
 * all together, more than a window's allowance; a lone instance below the ceiling is refused
 * nothing; and a busy window costs a few writes, not one per take. Generated timelines (fast-check;
 * seed printed, replay with VIGIL_MODEL_SEED).
 */

const seed = process.env.VIGIL_MODEL_SEED ? Number(process.env.VIGIL_MODEL_SEED) : Date.now() % 2 ** 31;
const NAME = 'TENANT#tnt_model';

/** Counts the table writes the shared limiter makes. */
function countingTable(): { table: Table; writes: () => number } {
  const inner = createSqliteTable({ db: openSqliteDatabase(':memory:') });
  let writes = 0;
  const table: Table = {
    ...inner,
    update: (op) => {
      writes += 1;
      return inner.update(op);
    },
  };
  return { table, writes: () => writes };
}

const step = fc.record({
  instance: fc.nat({ max: 3 }),
  /** Fake ms before this take: mostly none (a cron's burst), sometimes into the next window. */
  advanceMs: fc.oneof({ weight: 8, arbitrary: fc.constant(0) }, fc.integer({ min: 1, max: 4000 })),
});
const policy = fc.record({
  burst: fc.integer({ min: 1, max: 40 }),
  perSecond: fc.constantFrom(0.5, 1, 5, 20),
});

describe('leased tenant tokens over the shared windows', () => {
  it(`never admit more than a window allows across instances (seed ${seed})`, async () => {
    console.info(`leased limiter model: seed ${seed}`);
    await fc.assert(
      fc.asyncProperty(
        policy,
        fc.array(step, { minLength: 1, maxLength: 300 }),
        async (p: RatePolicy, steps) => {
          const clock = createFakeClock(1_700_000_000_000);
          const { table } = countingTable();
          const shared = createStoreRateLimiter({ table, clock });
          const instances = [0, 1, 2, 3].map(() => createLeasedLimiter({ shared, clock }));
          const admitted = new Map<number, number>();
          for (const s of steps) {
            clock.advance(s.advanceMs);
            const decision = await instances[s.instance]?.take(NAME, p);
            if (decision?.allowed) {
              const start = rateWindowAt(clock.now(), p).startMs;
              admitted.set(start, (admitted.get(start) ?? 0) + 1);
            }
          }
          for (const count of admitted.values()) expect(count).toBeLessThanOrEqual(p.burst);
        },
      ),
      { seed, numRuns: 100 },
    );
  });

  it(`refuse a lone instance nothing below the ceiling, in a few writes a window (seed ${seed})`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 10, max: 200 }), async (takes) => {
        const clock = createFakeClock(1_700_000_000_000);
        const { table, writes } = countingTable();
        const p = { burst: 1000, perSecond: 200 };
        const leased = createLeasedLimiter({ shared: createStoreRateLimiter({ table, clock }), clock });
        for (let i = 0; i < takes; i += 1) expect((await leased.take(NAME, p)).allowed).toBe(true);
        // Leases of 1, 2, 4, … up to 100: about log2 of the takes, then one per 100.
        expect(writes()).toBeLessThanOrEqual(Math.ceil(Math.log2(takes + 1)) + Math.ceil(takes / 100));
      }),
      { seed, numRuns: 20 },
    );
  });

  it('falls back to single tokens when a lease does not fit, up to the exact ceiling', async () => {
    const clock = createFakeClock(1_700_000_000_000);
    const { table } = countingTable();
    const shared = createStoreRateLimiter({ table, clock });
    const p = { burst: 30, perSecond: 1 };
    // Another instance spends most of the window one token at a time.
    for (let i = 0; i < 25; i += 1) await shared.take(NAME, p);
    const leased = createLeasedLimiter({ shared, clock });

    const decisions = [];
    for (let i = 0; i < 8; i += 1) decisions.push((await leased.take(NAME, p)).allowed);

    expect(decisions).toEqual([true, true, true, true, true, false, false, false]);
  });

  it('gives up the tokens a window left unspent: the next window is counted afresh', async () => {
    const clock = createFakeClock(1_700_000_000_000);
    const { table } = countingTable();
    const shared = createStoreRateLimiter({ table, clock });
    const p = { burst: 30, perSecond: 1 };
    const leased = createLeasedLimiter({ shared, clock });
    // Leases of 1 and 2: one token is still held when the window ends.
    expect((await leased.take(NAME, p)).allowed).toBe(true);
    expect((await leased.take(NAME, p)).allowed).toBe(true);
    clock.set(rateWindowAt(clock.now(), p).endMs);
    // Another instance spends the whole new window.
    for (let i = 0; i < 30; i += 1) expect((await shared.take(NAME, p)).allowed).toBe(true);

    expect((await leased.take(NAME, p)).allowed).toBe(false);
  });
});
