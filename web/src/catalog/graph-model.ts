/**
 * The catalog graph as data: depends_on edges, a layered layout and the blast radius. Pure and
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

/**
 * Layers by dependency depth: an entity that depends on nothing drawn is in layer 0, any other one
 * layer below the deepest thing it depends on. Entities on a cycle (the API should refuse those)
 * go below everything else. Within a layer, ids keep the order given (the caller sorts by name).
 */
export function layers(ids: readonly string[], edges: readonly Edge[]): string[][] {
  const drawn = new Set(ids);
  const dependsOn = new Map<string, string[]>();
  for (const e of edges) {
    if (!drawn.has(e.from) || !drawn.has(e.to) || e.from === e.to) continue;
    dependsOn.set(e.from, [...(dependsOn.get(e.from) ?? []), e.to]);
  }
  const depth = new Map<string, number>();
  const visiting = new Set<string>();
  const onCycle = new Set<string>();
  const depthOf = (id: string): number => {
    const known = depth.get(id);
    if (known !== undefined) return known;
    if (visiting.has(id)) {
      onCycle.add(id);
      return 0;
    }
    visiting.add(id);
    let d = 0;
    for (const up of dependsOn.get(id) ?? []) d = Math.max(d, depthOf(up) + 1);
    visiting.delete(id);
    depth.set(id, d);
    return d;
  };
  for (const id of ids) depthOf(id);
  const deepest = Math.max(0, ...[...depth.values()]);
  const out: string[][] = [];
  for (const id of ids) {
    const d = onCycle.has(id) ? deepest + 1 : (depth.get(id) ?? 0);
    while (out.length <= d) out.push([]);
    out[d]?.push(id);
  }
  return out.filter((layer) => layer.length > 0);
}
