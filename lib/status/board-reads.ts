import type { ToolKitDeps } from '../catalog/entities.ts';
import { requiredEntity } from '../catalog/entities.ts';
import type { RelationStore } from '../catalog/relations.ts';
import type { BlueprintService, EntityService } from '../catalog/services.ts';
import type { StatusService } from './status-service.ts';

/*
 * The status board's reads the MCP tools and views share (their services, lent by MCP's
 * composition), the dependency walk over them, and the entity as a tool shows it.
 */

/** Bounds of the graph tools: entities walked, and the history explain_entity_state shows (lib/features/tools/explain-entity.ts). */
export const GRAPH_LIMITS = { maxEntities: 1000, transitionHours: 24, maxTransitions: 10 } as const;

/**
 * The catalog's and the status board's reads MCP composes (its prompts and app views read them):
 * what it lends the mounts whose tools read the board or walk the graph (`services.mcp.reads`).
 */
export interface BoardReads {
  status: Pick<StatusService, 'board' | 'transitions'>;
  blueprints: Pick<BlueprintService, 'list'>;
  entities: Pick<EntityService, 'list' | 'get'>;
  relations: Pick<RelationStore, 'list'>;
}

/** The board tools' services (get_status_summary, get_blast_radius): the kit and the board's reads. */
export type BoardToolDeps = ToolKitDeps & BoardReads;

type Board = Awaited<ReturnType<BoardReads['status']['board']>>;
type BoardEntity = Board['entities'][number];

interface Reached {
  id: string;
  blueprint_slug: string;
  slug: string;
  name: string;
  state: BoardEntity['state'];
  /** 1: a direct neighbour. */
  depth: number;
}

/**
 * Walks the tenant's depends_on edges breadth-first from `startId`: `forward` follows what it depends
 * on (upstream), otherwise what depends on it (the blast radius). Entities already deleted (their
 * relations still being purged) are skipped.
 */
export async function walk(
  deps: Pick<BoardReads, 'relations' | 'status'>,
  tenantId: string,
  startId: string,
  forward: boolean,
) {
  const [relations, board] = await Promise.all([deps.relations.list(tenantId), deps.status.board(tenantId)]);
  const byId = new Map(board.entities.map((e) => [e.id, e]));
  const next = new Map<string, string[]>();
  for (const rel of relations) {
    if (rel.relation_type !== 'depends_on') continue;
    const [from, to] = forward
      ? [rel.from_entity_id, rel.to_entity_id]
      : [rel.to_entity_id, rel.from_entity_id];
    next.set(from, [...(next.get(from) ?? []), to]);
  }
  const reached: Reached[] = [];
  const seen = new Set([startId]);
  let frontier = [startId];
  let truncated = false;
  for (let depth = 1; frontier.length > 0; depth += 1) {
    const following: string[] = [];
    for (const id of frontier) {
      for (const neighbour of (next.get(id) ?? []).sort()) {
        const entity = byId.get(neighbour);
        if (seen.has(neighbour) || !entity) continue;
        if (reached.length === GRAPH_LIMITS.maxEntities) truncated = true;
        if (truncated) break;
        seen.add(neighbour);
        following.push(neighbour);
        const { blueprint_slug, slug, name, state } = entity;
        reached.push({ id: neighbour, blueprint_slug, slug, name, state, depth });
      }
    }
    frontier = following;
  }
  return { reached, truncated };
}

/** The entity as a tool result names it: its id, address and state. */
export const entityRef = (e: {
  id: string;
  name: string;
  blueprint_slug: string;
  slug: string;
  state: string;
}) => ({
  id: e.id,
  name: e.name,
  blueprint_slug: e.blueprint_slug,
  slug: e.slug,
  state: e.state,
});

/** The entity the arguments name (entity_id, or blueprint_slug and entity_slug), as the entity view. */
export const load = async (
  deps: Pick<ToolKitDeps, 'entityStore'> & Pick<BoardReads, 'entities'>,
  tenantId: string,
  args: Record<string, unknown>,
) => {
  const { blueprint_slug, slug } = await requiredEntity(deps, tenantId, args);
  return deps.entities.get(tenantId, blueprint_slug, slug);
};
