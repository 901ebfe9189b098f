import { describe, expect, it } from 'vitest';
import { createReadCache } from '../../lib/sqlite/sqlite-read-cache.ts';

describe('read cache', () => {
  const make = (maxEntries = 3) => {
    let now = 0;
    const cache = createReadCache({ maxEntries, maxAgeMs: 1000, now: () => now });
    return { cache, advance: (ms: number) => (now += ms) };
  };

  it('keeps an entry for maxAgeMs from when it was read or written', () => {
    const { cache, advance } = make();
    cache.set('a', '1');
    advance(1000);
    expect(cache.get('a')).toBe('1');
    cache.written('a', '2');
    advance(1000);
    expect(cache.get('a')).toBe('2');
    advance(1);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('refreshes only cached entries on writes, and forgets deleted and dropped ones', () => {
    const { cache } = make();
    cache.written('new', '1');
    expect(cache.get('new')).toBeUndefined();
    cache.set('a', '1');
    cache.set('b', '1');
    cache.written('a', undefined);
    cache.drop('b');
    expect([cache.get('a'), cache.get('b'), cache.size]).toEqual([undefined, undefined, 0]);
  });

  it('holds at most maxEntries, the least recently stored leaving first', () => {
    const { cache } = make(3);
    for (const key of ['a', 'b', 'c']) cache.set(key, key);
    cache.written('a', 'a2'); // a is now the newest
    cache.set('d', 'd');
    expect(['a', 'b', 'c', 'd'].map((key) => cache.get(key))).toEqual(['a2', undefined, 'c', 'd']);
    expect(cache.size).toBe(3);
  });
});
