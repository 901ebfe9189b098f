import * as z from 'zod';
import { defineItem } from '../store/item-definition.ts';
import { itemType } from '../store/item-type.ts';
import { queryAll, transactIf } from '../store/items.ts';
import type { Condition, Item, Table, WriteOp } from '../store/table.ts';

/**
 * The owner of `incident_affected` and `incident_affected_open` (docs/data-model.md, Incidents):
 * one incident per root cause (DECISIONS.md "One incident per root cause (wave 6)"). An entity that
 * goes down while an entity it depends on is down with an open incident joins that incident as an
 * affected entity instead of opening its own: one `incident_affected` entry per incident and
 * entity, kept with the incident (`INCAFF#<tnt>#<inc_id>`) and on gsi1 under the entity's
 * incidents (the partition of incident-items.ts's `INCENT#<tnt>#<ent_id>`, sort key the root's
 * incident id), so GET /v1/incidents?entity_id=<dependent> finds the root's incident; and one
 * `incident_affected_open` pointer per entity to the incident it is affected in now (consistent,
 * one read), deleted when the entity recovers or opens its own incident (the root's recovery
 * "promotes" it). Every write is conditional on the entry's last transition, so a redelivered or
 * stale transition changes nothing.
 */

const AFFECTED_STATES = ['down', 'degraded', 'up'] as const;

const affectedSchema = z.object({
  tenant_id: z.string(),
  /** The root cause's incident. */
  incident_id: z.string(),
  entity_id: z.string(),
  entity_name: z.string(),
  /** The entity's state now as the incident knows it (`up`: it recovered inside the incident). */
  state: z.enum(AFFECTED_STATES),
  /** When it joined, and in which state. */
  joined_at: z.string(),
  joined_state: z.enum(AFFECTED_STATES),
  /** When its state last changed inside the incident. */
  at: z.string(),
  /** The entity transition applied last (a later one only replaces it). */
  transition_id: z.string(),
  /** The check whose result made that transition. */
  check_id: z.string(),
  /** Its own incident, opened when the root cause recovered while it was still down; absent before. */
  own_incident_id: z.string().optional(),
});
export type AffectedRecord = z.infer<typeof affectedSchema>;

const entries = defineItem({
  type: itemType('incident_affected'),
  schema: affectedSchema,
  key: (k: { tenant_id: string; incident_id: string; entity_id: string }) => ({
    pk: `INCAFF#${k.tenant_id}#${k.incident_id}`,
    sk: `ENT#${k.entity_id}`,
  }),
  keyOf: (r) => ({ tenant_id: r.tenant_id, incident_id: r.incident_id, entity_id: r.entity_id }),
  // The entity's incidents' partition (incident-items.ts): its list finds the root's incident.
  gsi1: (r) => ({ pk: `INCENT#${r.tenant_id}#${r.entity_id}`, sk: r.incident_id }),
  docKey: { tenant_id: '<tnt>', incident_id: '<inc_id>', entity_id: '<ent_id>' },
});

const pointers = defineItem({
  type: itemType('incident_affected_open'),
  schema: z.object({ incident_id: z.string() }),
  key: (k: { tenant_id: string; entity_id: string }) => ({
    pk: `AFFECTED#${k.tenant_id}#${k.entity_id}`,
    sk: 'OPEN',
  }),
  keyOf: null,
  docKey: { tenant_id: '<tnt>', entity_id: '<ent_id>' },
});

const keyOf = (r: Pick<AffectedRecord, 'tenant_id' | 'incident_id' | 'entity_id'>) => ({
  tenant_id: r.tenant_id,
  incident_id: r.incident_id,
  entity_id: r.entity_id,
});
const pointerKey = (tenantId: string, entityId: string) => ({ tenant_id: tenantId, entity_id: entityId });
const olderThan = (transitionId: string): Condition => ({
  kind: 'compare',
  attr: 'transition_id',
  op: '<',
  value: transitionId,
});
const notPromotedYet: Condition = { kind: 'attrNotExists', attr: 'own_incident_id' };
const pointsAt = (incidentId: string): Condition => ({
  kind: 'compare',
  attr: 'incident_id',
  op: '=',
  value: incidentId,
});

/** Whether a stored item is an affected entry (an entity's incident list holds both). */
export const isAffectedItem = (item: Item) => entries.is(item);

/** The root incident an entry of an entity's incident list names. */
export const affectedIncidentIdOf = (item: Item) => entries.parse(item).incident_id;

/** The incident the entity is affected in now (its pointer; consistent), or undefined. */
export async function readAffectedPointer(
  table: Table,
  tenantId: string,
  entityId: string,
): Promise<string | undefined> {
  return (await pointers.get(table, pointerKey(tenantId, entityId), { consistent: true }))?.incident_id;
}

/** The entity's entry on the incident (consistent), or undefined. */
export function readAffectedEntry(
  table: Table,
  k: { tenant_id: string; incident_id: string; entity_id: string },
): Promise<AffectedRecord | undefined> {
  return entries.get(table, keyOf(k), { consistent: true });
}

/** The entities affected in an incident (consistent), in the order they joined. */
export async function readAffected(
  table: Table,
  tenantId: string,
  incidentId: string,
): Promise<AffectedRecord[]> {
  const pk = entries.key({ tenant_id: tenantId, incident_id: incidentId, entity_id: '' }).pk;
  const found = await queryAll((cursor) => table.query({ pk, cursor, consistent: true }));
  return entries
    .parseAll(found)
    .sort((a, b) => (a.joined_at < b.joined_at ? -1 : a.joined_at > b.joined_at ? 1 : 0));
}

/**
 * Records the entity on the root's incident (a first join, or a join again after it recovered
 * inside it) with its pointer; false when a later transition is there already or one of `holds`
 * (the root incident still unresolved) fails.
 */
export function joinAffected(table: Table, record: AffectedRecord, holds: WriteOp[]): Promise<boolean> {
  const fresh: Condition = {
    kind: 'or',
    conditions: [
      { kind: 'itemNotExists' },
      { kind: 'and', conditions: [olderThan(record.transition_id), notPromotedYet] },
    ],
  };
  return transactIf(table, [
    ...holds,
    entries.put(record, fresh),
    pointers.putAt(pointerKey(record.tenant_id, record.entity_id), { incident_id: record.incident_id }),
  ]);
}

/**
 * Moves an affected entity's entry to the state a later transition of it set (down, degraded or
 * up: an up one also drops its pointer); false when the entry has that transition or a later one,
 * was promoted to its own incident, or one of `holds` fails.
 */
export function moveAffected(
  table: Table,
  entry: AffectedRecord,
  change: { state: AffectedRecord['state']; at: string; transition_id: string; check_id: string },
  holds: WriteOp[] = [],
): Promise<boolean> {
  const ops: WriteOp[] = [
    ...holds,
    entries.update(keyOf(entry), {
      set: change,
      condition: {
        kind: 'and',
        conditions: [{ kind: 'itemExists' }, olderThan(change.transition_id), notPromotedYet],
      },
    }),
  ];
  if (change.state === 'up')
    ops.push(pointers.delete(pointerKey(entry.tenant_id, entry.entity_id), pointsAt(entry.incident_id)));
  return transactIf(table, ops);
}

/**
 * The writes that promote an affected entity still down to its own incident (`ownIncidentId`,
 * opened in the same transaction by the caller): the entry names it, and the pointer goes. They
 * fail when the entry recovered, moved past `entry.transition_id` or was promoted meanwhile.
 */
export function promoteAffectedOps(entry: AffectedRecord, ownIncidentId: string): WriteOp[] {
  return [
    entries.update(keyOf(entry), {
      set: { own_incident_id: ownIncidentId },
      condition: {
        kind: 'and',
        conditions: [
          { kind: 'compare', attr: 'transition_id', op: '=', value: entry.transition_id },
          { kind: 'compare', attr: 'state', op: '<>', value: 'up' },
          notPromotedYet,
        ],
      },
    }),
    pointers.delete(pointerKey(entry.tenant_id, entry.entity_id), pointsAt(entry.incident_id)),
  ];
}

/** Gives the incident's affected entries the expiry `ttl` (the incident's, set by its resolution); answers them as read. */
export async function expireAffected(
  table: Table,
  tenantId: string,
  incidentId: string,
  ttl: number,
): Promise<AffectedRecord[]> {
  const found = await readAffected(table, tenantId, incidentId);
  for (const record of found) {
    // itemExists: an update upserts, and an item expired meanwhile must not come back bare.
    await transactIf(table, [entries.update(keyOf(record), { ttl, condition: { kind: 'itemExists' } })]);
  }
  return found;
}

/** Drops a deleted entity's pointer (its purge; the entry stays with the incident until it expires). */
export const affectedPointerDeleteOp = (tenantId: string, entityId: string): WriteOp =>
  pointers.delete(pointerKey(tenantId, entityId));
