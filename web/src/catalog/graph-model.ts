/**
 * The catalog graph as data: depends_on edges (the layout: graph-layout.ts; the blast radius: the server's GET /v1/relations?dependents_of=). Pure and
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
