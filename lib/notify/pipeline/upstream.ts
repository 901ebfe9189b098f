import { type EntityState, readEntityById } from '../../catalog/entities.ts';
import { upstreamsOf } from '../../catalog/relations.ts';
import type { Table } from '../../store/table.ts';

/**
 * Dependency-aware suppression (DECISIONS.md "Notifications"): an entity going down while an entity
 * it depends_on (transitively) is already down is held back, with a marker under each down upstream
 * (suppressed-alert-items.ts); the upstream's recovery releases the markers, and each held alert is
 * evaluated again (flow.ts).
 */

const DOWN_STATES: ReadonlySet<string> = new Set(['down', 'degraded']);

/** True for a state an alert is held back under (and repeats run in). */
export const isDownState = (state: string) => DOWN_STATES.has(state);

/** The entities `entityId` depends on, directly or not, that are down or degraded now (breadth first). */
export async function downUpstreams(
  table: Table,
  tenantId: string,
  entityId: string,
): Promise<EntityState[]> {
  const ids = await upstreamsOf(table, tenantId, entityId);
  const states = await Promise.all(ids.map((id) => readEntityById(table, tenantId, id)));
  return states.flatMap((state) => (state && isDownState(state.state) ? [state] : []));
}
