import type { Table } from '../../store/table.ts';
import { parseEntityState, readEntityItems, readEntityPointers } from '../entities/entity-items.ts';

/** The other entity of a relation as answers name it: where it lives, its name and its state. */
export interface RelationEnd {
  name: string;
  slug: string;
  blueprint_slug: string;
  state: 'up' | 'degraded' | 'down' | 'unknown';
}

/**
 * The ends of these entity ids that still exist, by id: their id pointers, then their entity
 * items (the name and state as stored now), each read in batches of 100, so naming the ends of a
 * list of relations costs two batch reads per 100 distinct entities, never one read per relation.
 */
export async function readRelationEnds(
  table: Table,
  tenantId: string,
  ids: readonly string[],
): Promise<Map<string, RelationEnd>> {
  const pointers = ids.length > 0 ? await readEntityPointers(table, tenantId, ids) : [];
  const items = pointers.length > 0 ? await readEntityItems(table, tenantId, pointers) : [];
  const ends = new Map<string, RelationEnd>();
  for (const item of items) {
    const e = parseEntityState(item);
    ends.set(e.id, { name: e.name, slug: e.slug, blueprint_slug: e.blueprint_slug, state: e.state });
  }
  return ends;
}
