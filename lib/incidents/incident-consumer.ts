import { entityExistsOp } from '../catalog/entities.ts';
import { parseTransition, TRANSITION_ENTITY, type TransitionRecord } from '../checks/results.ts';
import type { Logger } from '../platform/logger.ts';
import type { Change, ChangeConsumer } from '../store/change-feed.ts';
import type { Table } from '../store/table.ts';
import { applyCheckTransition } from './also-failing.ts';
import {
  getIncident,
  type IncidentRecord,
  incidentAtOrBefore,
  incidentIdOf,
  openIncident,
  readOpenIncidentRecord,
} from './incident-items.ts';
import { expireResolvedParts, type RetentionDays, resolveThenExpire } from './incident-retention.ts';
import { placeDeparture, promoteAffected, recoverAffected } from './root-cause.ts';

/**
 * Incidents from the change feed: an entity transition out of up into down or degraded opens an
 * incident (its id derived from the transition), and so does one into down from unknown or
 * degraded when the entity has none open (DECISIONS.md "Alert truth (wave 5)": every entity that
 * is down is covered by an open incident, also one whose first results were failures) — unless an
 * entity it depends on is down with an open incident: then it joins that one, its root cause's
 * (root-cause.ts, "One incident per root cause (wave 6)"). A transition into up marks it recovered
 * there, or resolves the entity's open one, whose still-down affected entities then open their own.
 * Every write is conditional, so a redelivered change opens or resolves nothing twice, and a stale
 * resolving transition (older than the open incident) is ignored.
 */

/** Whether the entity is covered by a maintenance window now (the maintenance module wires it). */
export type InMaintenance = (tenantId: string, entityId: string) => Promise<boolean>;

export interface IncidentConsumerDeps {
  table: Table;
  logger: Logger;
  /** The tenant's retention: a resolved incident expires that long after its resolution. */
  retentionDays: RetentionDays;
  /** Default: never in maintenance. */
  inMaintenance?: InMaintenance | undefined;
  /** Called with each incident a transition to up resolved (lib/escalation tells the people its climb paged). */
  onResolved?: ((record: IncidentRecord) => Promise<void>) | undefined;
}

export interface IncidentFeedDeps {
  table: Table;
  logger: Logger;
  retentionDays: RetentionDays;
  /**
   * A fresh answer to "in maintenance?" for each batch of changes (so it may read a tenant's
   * windows once per batch, not once per transition of a burst); default: never in maintenance.
   */
  maintenanceForBatch?: (() => InMaintenance) | undefined;
  onResolved?: IncidentConsumerDeps['onResolved'];
}

/** The transition (entity or check) a change inserted, or undefined for any other change. */
function insertedTransition(change: Change): TransitionRecord | undefined {
  const item = change.newImage;
  if (change.eventName !== 'INSERT' || item?.entity !== TRANSITION_ENTITY) return undefined;
  return parseTransition(item);
}

/** True for a transition that opens an incident (DECISIONS.md: leaves up for down or degraded). */
export const opensIncident = (t: { from_state: string; to_state: string }) =>
  t.from_state === 'up' && (t.to_state === 'down' || t.to_state === 'degraded');

/**
 * True for a transition into down that opens an incident only if the entity has none open: from
 * unknown (failing from its first results) or from degraded (an entity that was never up).
 */
export const opensIncidentIfNoneOpen = (t: { from_state: string; to_state: string }) =>
  t.to_state === 'down' && (t.from_state === 'unknown' || t.from_state === 'degraded');

/** The incident a transition opens. */
export function incidentOpenedBy(t: TransitionRecord, inMaintenance: boolean): IncidentRecord {
  return {
    id: incidentIdOf(t.id),
    tenant_id: t.tenant_id,
    entity_id: t.entity_id,
    entity_name: t.entity_name,
    state: 'open',
    opened_at: t.created_at,
    acknowledged_at: null,
    acknowledged_by: null,
    resolved_at: null,
    in_maintenance: inMaintenance,
    opening_transition_id: t.id,
    check_id: t.check_id,
    resolving_transition_id: null,
    note_count: 0,
  };
}

/**
 * A redelivered recovery (its hook or a promotion threw, so the change feed delivers it again): the
 * incident it resolved has its parts given their expiry again, its affected entities promoted
 * again and is handed to the hook again, all idempotent.
 */
async function resolvedAgain(deps: IncidentConsumerDeps, t: TransitionRecord): Promise<void> {
  const at = incidentIdOf(t.id);
  const before = await incidentAtOrBefore(deps.table, { tenant: t.tenant_id, entity: t.entity_id, at });
  const record = before && (await getIncident(deps.table, t.tenant_id, before.id));
  if (record?.resolving_transition_id !== t.id) return;
  const resolvedAt = record.resolved_at ?? t.created_at;
  // Its first delivery may have stopped between the resolution and the parts' expiry.
  const affected = await expireResolvedParts(deps, { ...record, resolved_at: resolvedAt });
  await promoteAffected(deps, record, resolvedAt, affected);
  await deps.onResolved?.(record);
}

/** Applies one entity transition to the entity's incidents (idempotent). */
export async function applyTransition(deps: IncidentConsumerDeps, t: TransitionRecord): Promise<void> {
  if (t.to_state !== 'up') {
    const opening = opensIncident(t) || opensIncidentIfNoneOpen(t);
    // Covered by a root cause's incident (joined, or its entry moved), or by its own already.
    if ((await placeDeparture(deps, t, opening)) === 'placed') return;
    const maintenance = deps.inMaintenance ? await deps.inMaintenance(t.tenant_id, t.entity_id) : false;
    // Opened only while the entity exists (checked in the same transaction): a transition read
    // after its entity was deleted opens nothing, since the entity's purge (which resolves its
    // open incident, incident-purge.ts) may have run already and nothing would resolve it later.
    const opened = await openIncident(deps.table, incidentOpenedBy(t, maintenance), [
      entityExistsOp(t.tenant_id, t.entity_id),
    ]);
    if (!opened)
      deps.logger.debug('incident not opened: stored already, another is open, or the entity is deleted', {
        transition: t.id,
      });
    return;
  }
  // Affected in a root cause's incident: marked recovered there.
  await recoverAffected(deps.table, t);
  const open = await readOpenIncidentRecord(deps.table, t.tenant_id, t.entity_id);
  // A redelivered recovery of an earlier episode finds the next episode's incident: leave it open.
  if (!open || open.opening_transition_id >= t.id) return resolvedAgain(deps, t);
  const resolution = { at: t.created_at, transitionId: t.id, cause: 'up' } as const;
  const affected = await resolveThenExpire(deps, open, resolution);
  if (!affected) return resolvedAgain(deps, t);
  const resolved = {
    ...open,
    state: 'resolved',
    resolved_at: resolution.at,
    resolving_transition_id: t.id,
    resolution: 'up',
  } as const;
  // Its dependents still down are their own root cause now: each opens its own incident.
  await promoteAffected(deps, resolved, resolution.at, affected);
  await deps.onResolved?.(resolved);
}

/** The tenants' retention read once per batch: a burst of recoveries reads each tenant once. */
function retentionForBatch(read: RetentionDays): RetentionDays {
  const known = new Map<string, Promise<number>>();
  return (tenantId) => {
    let days = known.get(tenantId);
    if (!days) {
      days = read(tenantId);
      known.set(tenantId, days);
    }
    return days;
  };
}

/** A change-feed consumer that opens and resolves incidents, in the order of the changes. */
export function createIncidentConsumer(deps: IncidentFeedDeps): ChangeConsumer {
  return async (changes) => {
    const batch = {
      ...deps,
      inMaintenance: deps.maintenanceForBatch?.(),
      retentionDays: retentionForBatch(deps.retentionDays),
    };
    for (const change of changes) {
      const transition = insertedTransition(change);
      if (transition?.kind === 'entity') await applyTransition(batch, transition);
      // A check failing inside an entity already down joins its open incident ("also failing").
      else if (transition) await applyCheckTransition(deps.table, transition);
    }
  };
}
