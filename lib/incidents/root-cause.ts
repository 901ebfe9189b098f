import { entityExistsOp, readEntityById } from '../catalog/entities.ts';
import { upstreamsOf } from '../catalog/relations.ts';
import type { TransitionRecord } from '../checks/results.ts';
import type { Logger } from '../platform/logger.ts';
import type { Table } from '../store/table.ts';
import {
  type AffectedRecord,
  joinAffected,
  moveAffected,
  promoteAffectedOps,
  readAffected,
  readAffectedEntry,
  readAffectedPointer,
} from './affected-items.ts';
import {
  getIncident,
  type IncidentRecord,
  incidentIdOf,
  incidentUnresolvedOp,
  openIncident,
  readOpenIncidentRecord,
} from './incident-items.ts';

/**
 * One incident per root cause (DECISIONS.md "One incident per root cause (wave 6)"): an entity
 * going down while an entity it depends on (directly or not: the relation the upstream hold walks)
 * is down with an open incident joins that incident as an affected entity instead of opening its
 * own; while it stays affected its entry follows its state, and its recovery marks it recovered
 * there. When the root's incident resolves (its entity up, deleted, or by hand) each affected entity
 * still down opens its own incident then: its hold ends and it is its own root cause. An entity with
 * its own incident open keeps it. So every entity that is down is covered by exactly one open
 * incident, its own or its root cause's.
 *
 * In the cloud the transitions of different entities reach the consumer in any order; every write
 * here is conditional (a join or a move holds on the root's incident being unresolved, a promotion
 * on the entry being unchanged), so a join racing the root's resolution either lands first (and the
 * resolution's promotion sees it) or fails and is judged again against what is stored then.
 */

/** States an entity covers dependents in (the upstream hold's: down or degraded). */
const DEPARTED: ReadonlySet<string> = new Set(['down', 'degraded']);

/** Attempts at placing one transition before the change is handed back for a redelivery. */
const PLACEMENT_ATTEMPTS = 4;

export interface RootCauseDeps {
  table: Table;
  logger?: Logger | undefined;
  /** Whether the entity is in a maintenance window now (default: never). */
  inMaintenance?: ((tenantId: string, entityId: string) => Promise<boolean>) | undefined;
}

/** The open incident covering the entity: its own, else the root cause's it is affected in; or undefined. */
export async function coveringIncident(
  table: Table,
  tenantId: string,
  entityId: string,
): Promise<IncidentRecord | undefined> {
  const own = await readOpenIncidentRecord(table, tenantId, entityId);
  if (own) return own;
  const pointer = await readAffectedPointer(table, tenantId, entityId);
  const root = pointer ? await getIncident(table, tenantId, pointer) : undefined;
  return root && root.state !== 'resolved' ? root : undefined;
}

/** The open incident of the nearest upstream that is down (breadth first), or undefined. */
async function rootIncidentOf(table: Table, tenantId: string, entityId: string) {
  for (const id of await upstreamsOf(table, tenantId, entityId)) {
    const upstream = await readEntityById(table, tenantId, id);
    if (!upstream || !DEPARTED.has(upstream.state)) continue;
    const incident = await coveringIncident(table, tenantId, id);
    if (incident) return incident;
  }
  return undefined;
}

const stateOf = (t: TransitionRecord): AffectedRecord['state'] =>
  t.to_state === 'up' ? 'up' : t.to_state === 'degraded' ? 'degraded' : 'down';

const moveOf = (t: TransitionRecord) => ({
  state: stateOf(t),
  at: t.created_at,
  transition_id: t.id,
  check_id: t.check_id,
});

/**
 * Places an entity transition away from up (`opening`: one that opens an incident when the entity
 * is covered by none) on the incident covering the entity, and reports `open` when it must open
 * its own. Idempotent; throws when its writes kept conflicting (the change is delivered again).
 */
export async function placeDeparture(
  deps: RootCauseDeps,
  t: TransitionRecord,
  opening: boolean,
): Promise<'placed' | 'open'> {
  for (let attempt = 0; attempt < PLACEMENT_ATTEMPTS; attempt += 1) {
    const placed = await placeOnce(deps.table, t, opening);
    if (placed !== 'again') return placed;
  }
  throw new Error(`transition ${t.id}: its incident writes kept conflicting`);
}

async function placeOnce(table: Table, t: TransitionRecord, opening: boolean) {
  const tenant_id = t.tenant_id;
  // Only an entity away from up can be affected (its recovery dropped its pointer).
  const pointer = DEPARTED.has(t.from_state)
    ? await readAffectedPointer(table, tenant_id, t.entity_id)
    : undefined;
  const root = pointer ? await getIncident(table, tenant_id, pointer) : undefined;
  if (root && root.state !== 'resolved') {
    // Affected in the root's incident: its entry follows its state.
    const entry = await readAffectedEntry(table, { tenant_id, incident_id: root.id, entity_id: t.entity_id });
    if (entry && entry.own_incident_id === undefined && entry.state !== 'up') {
      if (entry.transition_id >= t.id) return 'placed';
      const held = [incidentUnresolvedOp(tenant_id, root.id)];
      return (await moveAffected(table, entry, moveOf(t), held)) ? 'placed' : 'again';
    }
  }
  if (!opening) return 'placed';
  // Most entities have no upstream down: they open their own (conditional: a redelivery opens none).
  const cause = await rootIncidentOf(table, tenant_id, t.entity_id);
  if (!cause) return 'open';
  // Its own incident open (kept), or opened by this very transition before (a redelivery).
  if (await readOpenIncidentRecord(table, tenant_id, t.entity_id)) return 'placed';
  if (await getIncident(table, tenant_id, incidentIdOf(t.id))) return 'placed';
  const record: AffectedRecord = {
    tenant_id,
    incident_id: cause.id,
    entity_id: t.entity_id,
    entity_name: t.entity_name,
    state: stateOf(t),
    joined_at: t.created_at,
    joined_state: stateOf(t),
    at: t.created_at,
    transition_id: t.id,
    check_id: t.check_id,
  };
  if (await joinAffected(table, record, [incidentUnresolvedOp(tenant_id, cause.id)])) return 'placed';
  // Joined already (a redelivery, or a later transition of it is there), else the root resolved meanwhile.
  const entry = await readAffectedEntry(table, { tenant_id, incident_id: cause.id, entity_id: t.entity_id });
  return entry && entry.transition_id >= t.id ? 'placed' : 'again';
}

/** Marks the entity recovered on the root's incident it is affected in, if it is (idempotent). */
export async function recoverAffected(table: Table, t: TransitionRecord): Promise<void> {
  const pointer = await readAffectedPointer(table, t.tenant_id, t.entity_id);
  if (!pointer) return;
  const key = { tenant_id: t.tenant_id, incident_id: pointer, entity_id: t.entity_id };
  const entry = await readAffectedEntry(table, key);
  if (!entry || entry.own_incident_id !== undefined || entry.transition_id >= t.id) return;
  // False: promoted meanwhile (the caller resolves its own incident next) or moved already.
  await moveAffected(table, entry, moveOf(t));
}

/**
 * After the root's incident resolved: each affected entity still away from up opens its own
 * incident, at `at` (its id is its last transition's, which opened none; the same transaction
 * names it on the entry and drops its pointer). Idempotent: a promoted or recovered entry is skipped,
 * and one that recovered or was deleted meanwhile makes the transaction fail, opening nothing.
 */
export async function promoteAffected(
  deps: RootCauseDeps,
  root: IncidentRecord,
  at: string,
  /** The root's entries as read after its resolution (by its parts' expiry); read here when absent. */
  affected?: AffectedRecord[],
): Promise<void> {
  for (const entry of affected ?? (await readAffected(deps.table, root.tenant_id, root.id))) {
    if (entry.state === 'up' || entry.own_incident_id !== undefined) continue;
    const maintenance = deps.inMaintenance
      ? await deps.inMaintenance(entry.tenant_id, entry.entity_id)
      : false;
    const own: IncidentRecord = {
      id: incidentIdOf(entry.transition_id),
      tenant_id: entry.tenant_id,
      entity_id: entry.entity_id,
      entity_name: entry.entity_name,
      state: 'open',
      opened_at: at,
      acknowledged_at: null,
      acknowledged_by: null,
      resolved_at: null,
      in_maintenance: maintenance,
      opening_transition_id: entry.transition_id,
      check_id: entry.check_id,
      resolving_transition_id: null,
      note_count: 0,
    };
    const opened = await openIncident(deps.table, own, [
      entityExistsOp(entry.tenant_id, entry.entity_id),
      ...promoteAffectedOps(entry, own.id),
    ]);
    if (opened) continue;
    // Recovered, promoted or deleted meanwhile is fine; unchanged and still there, it is tried again.
    const now = await readAffectedEntry(deps.table, entry);
    const unchanged =
      now?.transition_id === entry.transition_id && now.state !== 'up' && now.own_incident_id === undefined;
    if (unchanged && (await readEntityById(deps.table, entry.tenant_id, entry.entity_id)))
      throw new Error(`incident ${root.id}: affected ${entry.entity_id} not promoted, tried again`);
    deps.logger?.debug('affected entity not promoted: recovered, promoted or deleted meanwhile', {
      incident: root.id,
      entity: entry.entity_id,
    });
  }
}
