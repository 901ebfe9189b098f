import { describe, expect, it } from 'vitest';
import { wouldCreateCycle } from '../../lib/domain/catalog/dependency-cycle.ts';

function graph(edges: [string, string][]) {
  const lookups: string[] = [];
  const neighbours = async (node: string) => {
    lookups.push(node);
    return edges.filter(([from]) => from === node).map(([, to]) => to);
  };
  return { neighbours, lookups };
}

describe('wouldCreateCycle', () => {
  it('finds the cycle c -> a closes over a -> b -> c', async () => {
    const { neighbours } = graph([
      ['a', 'b'],
      ['b', 'c'],
    ]);
    expect(await wouldCreateCycle('c', 'a', neighbours, 100)).toBe('cycle');
  });

  it('allows an edge that only forms a diamond', async () => {
    const { neighbours } = graph([
      ['a', 'b'],
      ['a', 'c'],
      ['b', 'd'],
    ]);
    expect(await wouldCreateCycle('c', 'd', neighbours, 100)).toBe('no_cycle');
  });

  it('treats a self-edge as a cycle without reading the graph', async () => {
    const { neighbours, lookups } = graph([]);
    expect(await wouldCreateCycle('a', 'a', neighbours, 100)).toBe('cycle');
    expect(lookups).toEqual([]);
  });

  it('terminates on graphs that already hold cycles elsewhere', async () => {
    const { neighbours } = graph([
      ['b', 'c'],
      ['c', 'd'],
      ['d', 'b'],
    ]);
    expect(await wouldCreateCycle('a', 'b', neighbours, 100)).toBe('no_cycle');
  });

  it('visits each node once', async () => {
    const { neighbours, lookups } = graph([
      ['b', 'c'],
      ['b', 'd'],
      ['c', 'e'],
      ['d', 'e'],
      ['e', 'f'],
    ]);
    expect(await wouldCreateCycle('a', 'b', neighbours, 100)).toBe('no_cycle');
    expect([...lookups].sort()).toEqual(['b', 'c', 'd', 'e', 'f']);
  });

  it('gives up with too_large past the node budget', async () => {
    const chain = Array.from({ length: 50 }, (_, i): [string, string] => [`n${i}`, `n${i + 1}`]);
    const { neighbours } = graph(chain);
    expect(await wouldCreateCycle('x', 'n0', neighbours, 10)).toBe('too_large');
    expect(await wouldCreateCycle('x', 'n0', neighbours, 100)).toBe('no_cycle');
  });
});
