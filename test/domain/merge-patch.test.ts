import { describe, expect, it } from 'vitest';
import { mergePatch } from '../../lib/domain/catalog/merge-patch.ts';

describe('mergePatch (RFC 7396)', () => {
  // The examples of RFC 7396, Appendix A.
  it.each<[unknown, unknown, unknown]>([
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [
      ['a', 'b'],
      ['c', 'd'],
      ['c', 'd'],
    ],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ])('patches %j with %j into %j', (target, patch, expected) => {
    expect(mergePatch(target, patch)).toEqual(expected);
  });

  it('leaves its inputs unchanged', () => {
    const target = { a: 1, b: { c: 2 } };
    const patch = { a: null, b: { c: 3 } };
    mergePatch(target, patch);
    expect(target).toEqual({ a: 1, b: { c: 2 } });
    expect(patch).toEqual({ a: null, b: { c: 3 } });
  });

  it('merges a patch nested 10,000 levels deep without exhausting the stack', () => {
    let patch: unknown = 'leaf';
    for (let i = 0; i < 10_000; i += 1) patch = { a: patch };
    let merged = mergePatch({}, patch);
    let depth = 0;
    while (typeof merged === 'object' && merged !== null) {
      merged = (merged as { a: unknown }).a;
      depth += 1;
    }
    expect(depth).toBe(10_000);
    expect(merged).toBe('leaf');
  });

  it('keeps a __proto__ member as a plain member and changes no prototype', () => {
    const patch = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}');
    const merged = mergePatch({}, patch) as Record<string, unknown>;
    expect(Object.keys(merged)).toEqual(['__proto__', 'a']);
    expect(merged.polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
