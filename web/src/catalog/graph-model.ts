/**
 * The catalog graph as data: depends_on edges and the blast radius (the layout: graph-layout.ts). Pure and
 * without imports, so the test suite (compiled without the console's settings) checks it directly.
 */

/** The attributes of a relation (Schemas['Relation']) the graph reads. */
interface Relation {
  id: string;
  from_entity_id: string;
  to_entity_id: string;
  relation_type: string;
}

/** The most entities the graph draws; the rest are counted in words. */
export const GRAPH_NODE_CAP = 500;

export interface Edge {
  id: string;
  /** The entity that depends on `to`. */
  from: string;
  to: string;
}

/** The depends_on relations as edges (a relation from A to B: A depends on B). */
export function dependsOnEdges(relations: readonly Relation[]): Edge[] {
  return relations
    .filter((r) => r.relation_type === 'depends_on')
    .map((r) => ({ id: r.id, from: r.from_entity_id, to: r.to_entity_id }));
}

/**
 * Every entity that depends on `startId`, directly or transitively (following edges backwards
 * from what is depended on to its dependents), without `startId` itself.
 */
export function blastRadius(startId: string, edges: readonly Edge[]): Set<string> {
  const dependents = new Map<string, string[]>();
  for (const e of edges) dependents.set(e.to, [...(dependents.get(e.to) ?? []), e.from]);
  const reached = new Set<string>();
  const queue = [startId];
  while (queue.length > 0) {
    const id = queue.shift() as string;
    for (const next of dependents.get(id) ?? []) {
      if (next === startId || reached.has(next)) continue;
      reached.add(next);
      queue.push(next);
    }
  }
  return reached;
}
