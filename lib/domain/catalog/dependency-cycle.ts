/**
 * The depends_on cycle rule. Adding the edge `from -> to` closes a cycle exactly when `from` is
 * already reachable from `to`. Pure search over an injected neighbour lookup (the caller reads the
 * adjacency items), bounded so a huge graph cannot make one request run unbounded.
 */

export type CycleCheck = 'cycle' | 'no_cycle' | 'too_large';

/** Lookups run at most this many at a time. */
const PARALLEL_LOOKUPS = 16;

/** Whether adding `from -> to` closes a cycle: a breadth-first search from `to` for `from`, visiting at most `maxNodes` nodes. */
export async function wouldCreateCycle(
  from: string,
  to: string,
  neighbours: (node: string) => Promise<readonly string[]>,
  maxNodes: number,
): Promise<CycleCheck> {
  if (from === to) return 'cycle';
  const seen = new Set([to]);
  let frontier = [to];
  while (frontier.length > 0) {
    const next: string[] = [];
    for (let i = 0; i < frontier.length; i += PARALLEL_LOOKUPS) {
      const lists = await Promise.all(frontier.slice(i, i + PARALLEL_LOOKUPS).map(neighbours));
      for (const node of lists.flat()) {
        if (node === from) return 'cycle';
        if (seen.has(node)) continue;
        if (seen.size >= maxNodes) return 'too_large';
        seen.add(node);
        next.push(node);
      }
    }
    frontier = next;
  }
  return 'no_cycle';
}
