import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createStoreRateLimiter } from '../../lib/auth/limits/rate-limit-items.ts';
import { createDynamoTable } from '../../lib/dynamodb/dynamodb-table.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { createMemoryRateLimiter, type RatePolicy } from '../../lib/platform/rate-limiter.ts';
import type { Table } from '../../lib/store/table.ts';
import { createTestTable } from '../support/dynamodb-local.ts';

const policy: RatePolicy = { burst: 5, perSecond: 1 };

async function takeMany(limiter: ReturnType<typeof createMemoryRateLimiter>, name: string, n: number) {
  const out = [];
  for (let i = 0; i < n; i += 1) out.push(await limiter.take(name, policy));
  return out;
}

describe('the in-memory token bucket', () => {
  it('admits a burst, then refuses with the time until one token is back', async () => {
    const clock = createFakeClock();
    const limiter = createMemoryRateLimiter({ clock });

    const decisions = await takeMany(limiter, 'KEY#a', 6);

    expect(decisions.slice(0, 5).every((d) => d.allowed)).toBe(true);
    expect(decisions.map((d) => d.remaining)).toEqual([4, 3, 2, 1, 0, 0]);
    expect(decisions[5]).toMatchObject({ allowed: false, limit: 5, remaining: 0, retryAfterSeconds: 1 });
    expect(decisions[5]?.resetSeconds).toBe(5);
  });

  it('takes a cost of several tokens whole or not at all', async () => {
    const clock = createFakeClock();
    const limiter = createMemoryRateLimiter({ clock });

    expect(await limiter.take('CONFIG#a', policy, 3)).toMatchObject({ allowed: true, remaining: 2 });
    // Three more do not fit in two: nothing is taken, and the wait is until the third is back.
    expect(await limiter.take('CONFIG#a', policy, 3)).toMatchObject({
      allowed: false,
      remaining: 2,
      retryAfterSeconds: 1,
    });
    expect(await limiter.take('CONFIG#a', policy, 2)).toMatchObject({ allowed: true, remaining: 0 });
    expect((await limiter.take('CONFIG#b', policy, 6)).allowed).toBe(false);
  });

  it('refills at the sustained rate and never above the burst', async () => {
    const clock = createFakeClock();
    const limiter = createMemoryRateLimiter({ clock });
    await takeMany(limiter, 'KEY#a', 5);

    clock.advance(2500);
    const afterTwoAndAHalf = await takeMany(limiter, 'KEY#a', 3);
    clock.advance(60_000);
    const peeked = await limiter.peek('KEY#a', policy);

    expect(afterTwoAndAHalf.map((d) => d.allowed)).toEqual([true, true, false]);
    expect(afterTwoAndAHalf[2]?.retryAfterSeconds).toBeCloseTo(0.5);
    expect(peeked).toMatchObject({ allowed: true, remaining: 5, resetSeconds: 0 });
  });

  it('does not charge a refused request', async () => {
    const clock = createFakeClock();
    const limiter = createMemoryRateLimiter({ clock });
    await takeMany(limiter, 'KEY#a', 5);
    await takeMany(limiter, 'KEY#a', 20);

    clock.advance(1000);

    expect((await limiter.take('KEY#a', policy)).allowed).toBe(true);
  });

  it('keeps one bucket per name', async () => {
    const clock = createFakeClock();
    const limiter = createMemoryRateLimiter({ clock });
    await takeMany(limiter, 'KEY#a', 6);

    expect(await limiter.take('KEY#b', policy)).toMatchObject({ allowed: true, remaining: 4 });
  });

  it('peeks without taking', async () => {
    const clock = createFakeClock();
    const limiter = createMemoryRateLimiter({ clock });
    await takeMany(limiter, 'KEY#a', 4);

    await limiter.peek('KEY#a', policy);
    await limiter.peek('KEY#a', policy);

    expect(await limiter.take('KEY#a', policy)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('drops the oldest bucket past its cap, so memory stays bounded', async () => {
    const clock = createFakeClock();
    const limiter = createMemoryRateLimiter({ clock, maxBuckets: 2 });
    await takeMany(limiter, 'KEY#a', 5);
    await limiter.take('KEY#b', policy);

    await limiter.take('KEY#c', policy);

    expect(await limiter.take('KEY#a', policy)).toMatchObject({ allowed: true, remaining: 4 });
  });

  it('sweeps out buckets that have filled up again, and only those', async () => {
    const clock = createFakeClock();
    const limiter = createMemoryRateLimiter({ clock, maxBuckets: 3, sweepIntervalMs: 1000 });
    await takeMany(limiter, 'KEY#busy', 5);
    await takeMany(limiter, 'KEY#idle', 1);
    clock.advance(2000); // idle is full again; busy holds 2 tokens
    await limiter.take('KEY#other', policy); // sweeps: idle goes, busy stays

    // Without the sweep this would be the fourth bucket and evict the oldest, busy.
    await limiter.take('KEY#d', policy);

    expect(await limiter.take('KEY#busy', policy)).toMatchObject({ allowed: true, remaining: 1 });
  });
});

describe('the table-backed window limiter (DynamoDB Local)', () => {
  let table: Table;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const testTable = await createTestTable(inject('dynamodbEndpoint'));
    table = createDynamoTable({ client: testTable.client, tableName: testTable.tableName });
    drop = testTable.drop;
  });
  afterAll(async () => {
    await drop();
  });

  it('admits burst requests per window of burst / rate seconds, then refuses until the window ends', async () => {
    // 5 requests per 5 s window; start 2 s into a window.
    const clock = createFakeClock(Date.parse('2026-01-01T00:00:02.000Z'));
    const limiter = createStoreRateLimiter({ table, clock });

    const decisions = [];
    for (let i = 0; i < 6; i += 1) decisions.push(await limiter.take('KEY#w1', policy));
    clock.advance(3000);
    const nextWindow = await limiter.take('KEY#w1', policy);

    expect(decisions.map((d) => d.remaining)).toEqual([4, 3, 2, 1, 0, 0]);
    expect(decisions[5]).toMatchObject({ allowed: false, limit: 5, retryAfterSeconds: 3, resetSeconds: 3 });
    expect(nextWindow).toMatchObject({ allowed: true, remaining: 4 });
  });

  it('takes a cost of several requests whole or not at all, and a refused cost leaves room for a smaller one', async () => {
    const clock = createFakeClock(Date.parse('2026-01-01T00:00:00.000Z'));
    const limiter = createStoreRateLimiter({ table, clock });

    expect(await limiter.take('CONFIG#w3', policy, 3)).toMatchObject({ allowed: true, remaining: 2 });
    expect((await limiter.take('CONFIG#w3', policy, 3)).allowed).toBe(false);
    expect(await limiter.take('CONFIG#w3', policy, 2)).toMatchObject({ allowed: true, remaining: 0 });
    expect((await limiter.take('CONFIG#w4', policy, 6)).allowed).toBe(false);
  });

  it('counts in one item per window that expires by TTL', async () => {
    const clock = createFakeClock(Date.parse('2026-01-01T00:00:00.000Z'));
    const limiter = createStoreRateLimiter({ table, clock });

    await limiter.take('KEY#w2', policy);
    await limiter.take('KEY#w2', policy);
    const stored = await table.get(
      { pk: 'RATE#KEY#w2', sk: `W#${String(clock.now()).padStart(15, '0')}` },
      { consistent: true },
    );

    const ttl = Date.parse('2026-01-01T00:00:05.000Z') / 1000 + 60;
    expect(stored).toMatchObject({ entity: 'rate_window', schema_version: 1, count: 2, ttl });
  });

  it('shares the count between limiters on the same table (two Lambda instances)', async () => {
    const clock = createFakeClock(Date.parse('2026-01-01T00:00:00.000Z'));
    const one = createStoreRateLimiter({ table, clock });
    const two = createStoreRateLimiter({ table, clock });

    const decisions = await Promise.all(
      Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? one : two).take('KEY#w3', policy)),
    );

    expect(decisions.filter((d) => d.allowed)).toHaveLength(5);
    expect(await one.peek('KEY#w3', policy)).toMatchObject({ allowed: false, remaining: 0 });
  });

  it('stops writing for a name once it saw the window exhausted, until the next window', async () => {
    const clock = createFakeClock(Date.parse('2026-01-01T00:00:00.000Z'));
    let updates = 0;
    const counting: Table = {
      ...table,
      update: (op) => {
        updates += 1;
        return table.update(op);
      },
    };
    const limiter = createStoreRateLimiter({ table: counting, clock });

    for (let i = 0; i < 20; i += 1) await limiter.take('KEY#w4', policy);
    const peeked = await limiter.peek('KEY#w4', policy);
    const writesInFirstWindow = updates;
    clock.advance(5000);
    const next = await limiter.take('KEY#w4', policy);

    expect(writesInFirstWindow).toBe(6);
    expect(peeked.allowed).toBe(false);
    expect(next.allowed).toBe(true);
    expect(updates).toBe(7);
  });

  it('peeks at an untouched window as a full allowance', async () => {
    const clock = createFakeClock();
    const limiter = createStoreRateLimiter({ table, clock });

    expect(await limiter.peek('KEY#never', policy)).toMatchObject({ allowed: true, remaining: 5 });
  });
});
