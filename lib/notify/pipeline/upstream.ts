import { type EntityState, readEntityById } from '../../catalog/entity-items.ts';
import { dependenciesOf } from '../../catalog/relation-items.ts';
import type { Table } from '../../store/table.ts';

/**
 * Dependency-aware suppression (DECISIONS.md "Notifications"): an entity going down while an entity
 * it depends_on (transitively) is already down is held back, with a marker under each down upstream
 * (suppressed-alert-items.ts); the upstream's recovery releases the markers, and each held alert is
 * evaluated again (flow.ts).
 */

/** Entities visited at most by one walk: the depends_on graph is acyclic, this bounds a damaged one too. */
const MAX_WALK = 200;

const DOWN_STATES: ReadonlySet<string> = new Set(['down', 'degraded']);

/** True for a state an alert is held back under (and repeats run in). */
export const isDownState = (state: string) => DOWN_STATES.has(state);

/** The entities `entityId` depends on, directly or not, that are down or degraded now (breadth first). */
export async function downUpstreams(
  table: Table,
  tenantId: string,
  entityId: string,
): Promise<EntityState[]> {
  const seen = new Set<string>([entityId]);
  const down: EntityState[] = [];
  let frontier = [entityId];
  while (frontier.length > 0 && seen.size < MAX_WALK) {
    const next: string[] = [];
    for (const from of frontier) {
      for (const to of await dependenciesOf(table, tenantId, from)) {
        if (seen.has(to) || seen.size >= MAX_WALK) continue;
        seen.add(to);
        next.push(to);
      }
    }
    const states = await Promise.all(next.map((id) => readEntityById(table, tenantId, id)));
    for (const state of states) if (state && isDownState(state.state)) down.push(state);
    frontier = next;
  }
  return down;
}
