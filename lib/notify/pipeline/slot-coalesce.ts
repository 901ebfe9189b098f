import { readEntityState } from '../../catalog/entities.ts';
import type { TransitionRecord } from '../../checks/results.ts';
import type { Table } from '../../store/table.ts';

/**
 * One alert per entity per change (DECISIONS.md "Alert model (wave 4)"): an entity that passes
 * through `degraded` on its way `down` within one slot (its checks in different cells, or push
 * results, each moving it in its own transaction) publishes two transitions; only the final one is
 * alerted. A `degraded` transition is left out when, by the time the feed hands it over, the entity
 * is `down` through a later transition at most `SLOT_MS` after it. (Choice) Only degraded → down is
 * folded: a later recovery or a down → degraded never hides a down alert.
 */

/** The longest a slot spans: a check's interval is at least 30 s, a cell's slot deadline at most 60 s. */
const SLOT_MS = 60_000;

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** The time of a prefixed ULID (`trn_01J...`): its first 10 characters. */
function idTimeMs(id: string): number {
  const ulid = id.slice(id.indexOf('_') + 1, id.indexOf('_') + 11);
  let ms = 0;
  for (const char of ulid) ms = ms * 32 + CROCKFORD.indexOf(char);
  return ms;
}

/** Whether this entity transition to degraded was overtaken by the entity going down in the same slot. */
export async function passedThroughDegraded(table: Table, t: TransitionRecord): Promise<boolean> {
  if (t.kind !== 'entity' || t.to_state !== 'degraded' || !t.blueprint_slug || !t.entity_slug) return false;
  const entity = await readEntityState(table, t.tenant_id, t.blueprint_slug, t.entity_slug);
  const last = entity?.last_transition_id;
  if (!entity || entity.id !== t.entity_id || entity.state !== 'down' || !last || last <= t.id) return false;
  return idTimeMs(last) - Date.parse(t.created_at) <= SLOT_MS;
}
