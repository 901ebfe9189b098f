import fc from 'fast-check';
import { monotonicFactory } from 'ulid';
import { describe, expect, it } from 'vitest';
import { DUE_SUB_KEYS, dueSubKeyOf, shardOf } from '../../lib/domain/schedules.ts';

/**
 * The due index's write sharding (issue 78 point 5): a check's due entry sits under one of its
 * shard's DUE_SUB_KEYS sub-keys, so 100,000 heartbeats moving their entries in one second (2 WCU
 * each) take ~781 WCU a key at the default 4 shards, under DynamoDB's 1,000. That holds only if the
 * ids spread evenly over every (shard, sub-key) pair, whatever their times and randomness: ids
 * made as the product makes them (lib/platform/ids.ts, monotonic ULIDs: a burst of creations in one
 * millisecond differs only in its last characters), from generated times, rates and random sources.
 */

const JOBS = 100_000;
const SHARDS = 4;

/** A seeded source of [0, 1) (mulberry32), standing in for the ULID's random part. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const seed = process.env.VIGIL_PROPERTY_SEED ? Number(process.env.VIGIL_PROPERTY_SEED) : Date.now() % 2 ** 31;

describe('the due sub-keys', () => {
  it('are a stable number in 0 .. DUE_SUB_KEYS - 1 per check', () => {
    expect(DUE_SUB_KEYS).toBe(64);
    const id = 'chk_01M8JYBDBAB2876WG82JEKA05P';
    expect(dueSubKeyOf(id)).toBe(dueSubKeyOf(id));
    expect(Number.isInteger(dueSubKeyOf(id))).toBe(true);
    expect(dueSubKeyOf(id)).toBeGreaterThanOrEqual(0);
    expect(dueSubKeyOf(id)).toBeLessThan(DUE_SUB_KEYS);
  });

  it(`spread 100,000 check ids over 4 × 64 keys, the fullest under twice the mean (property, seed ${seed})`, () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.parse('2020-01-01'), max: Date.parse('2040-01-01') }),
        fc.integer({ min: 1, max: 5_000 }),
        fc.integer(),
        (startMs, perMs, random) => {
          const ulid = monotonicFactory(seeded(random));
          const perKey = new Array<number>(SHARDS * DUE_SUB_KEYS).fill(0);
          for (let i = 0; i < JOBS; i += 1) {
            const id = `chk_${ulid(startMs + Math.floor(i / perMs))}`;
            const key = shardOf(id, SHARDS) * DUE_SUB_KEYS + dueSubKeyOf(id);
            perKey[key] = (perKey[key] ?? 0) + 1;
          }
          const mean = JOBS / perKey.length;
          expect(Math.max(...perKey)).toBeLessThanOrEqual(2 * mean);
          expect(Math.min(...perKey)).toBeGreaterThanOrEqual(mean / 2);
        },
      ),
      { seed, numRuns: 2 },
    );
  });
});
