import { Graph, layout } from '@dagrejs/dagre';

/** A depends_on edge (graph-model.ts' Edge: `from` depends on `to`); no import, so the test suite loads this file directly. */
type Edge = { from: string; to: string };

/** A node's box in the layout (the graph node's drawn size, so dagre keeps them apart). */
const NODE_WIDTH = 200;
const NODE_HEIGHT = 80;

/**
 * A layered layout of the depends_on graph (dagre's Sugiyama-style ranking): what is depended on
 * sits above what depends on it, edges crossing as little as dagre manages. Answers each node's
 * top-left corner, as React Flow positions nodes.
 */
export function layeredLayout(
  ids: readonly string[],
  edges: readonly Edge[],
): Map<string, { x: number; y: number }> {
  const g = new Graph();
  g.setGraph({ rankdir: 'TB', nodesep: 30, ranksep: 60 });
  g.setDefaultEdgeLabel(() => ({}));
  const drawn = new Set(ids);
  for (const id of ids) g.setNode(id, { width: NODE_WIDTH, height: NODE_HEIGHT });
  for (const e of edges) {
    // Laid out from what is depended on to its dependents, so dependencies rank first (on top).
    if (drawn.has(e.from) && drawn.has(e.to) && e.from !== e.to) g.setEdge(e.to, e.from);
  }
  layout(g);
  const out = new Map<string, { x: number; y: number }>();
  for (const id of ids) {
    const n = g.node(id);
    out.set(id, { x: (n?.x ?? 0) - NODE_WIDTH / 2, y: (n?.y ?? 0) - NODE_HEIGHT / 2 });
  }
  return out;
}
