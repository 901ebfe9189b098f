import * as z from 'zod';
import { belowLimit } from '../store/conditions.ts';
import { defineItem } from '../store/item-definition.ts';
import { itemType } from '../store/item-type.ts';
import { queryAll } from '../store/items.ts';
import { type Page, type PageDeps, type PageRequest, readPage } from '../store/paging.ts';
import { ConditionFailedError, type Table, type WriteOp } from '../store/table.ts';

/**
 * Owner of `incident`, `incident_open` and `incident_note`. An incident is one episode of an
 * entity away from up; it lives in the tenant's incident partition (`INC#<tnt>`, sort key its id,
 * time-ordered, so lists are newest first) and on gsi1 under its entity. `incident_open` is the
 * entity's pointer to its open incident, written and deleted with the incident's opening and
 * resolution in one transaction: at most one open incident per entity, found with one read. Notes
 * live in the incident's own partition. Incidents are kept (they are what MTTR is computed from).
 */

export const INCIDENT_STATES = ['open', 'acknowledged', 'resolved'] as const;
export type IncidentState = (typeof INCIDENT_STATES)[number];

/** Notes one incident may hold, and the longest note (UTF-8 bytes): DECISIONS.md. */
export const NOTE_LIMITS = { perIncident: 200, maxBytes: 4096 } as const;

export const incidentSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  entity_id: z.string(),
  entity_name: z.string(),
  state: z.enum(INCIDENT_STATES),
  opened_at: z.string(),
  acknowledged_at: z.string().nullable(),
  /** The user id of the key that acknowledged. */
  acknowledged_by: z.string().nullable(),
  resolved_at: z.string().nullable(),
  in_maintenance: z.boolean(),
  /** The entity transition that opened it (its id is this incident's, with another prefix). */
  opening_transition_id: z.string(),
  /** The check whose result made the opening transition. */
  check_id: z.string(),
  resolving_transition_id: z.string().nullable(),
  /**
   * What resolved it: the entity back up (its transition above), or the entity deleted (no
   * transition: its incident-purge step resolves it). Absent on incidents stored before it existed
   * (those were resolved by an up transition) and on unresolved ones.
   */
  resolution: z.enum(['up', 'entity_deleted']).optional(),
  note_count: z.number().int(),
});
export type IncidentRecord = z.infer<typeof incidentSchema>;

export const noteSchema = z.object({
  incident_id: z.string(),
  text: z.string(),
  /** The user id of the key that wrote it. */
  created_by: z.string(),
  created_at: z.string(),
});
export type NoteRecord = z.infer<typeof noteSchema>;

const incidentsPk = (tenantId: string) => `INC#${tenantId}`;
const entityIncidentsPk = (tenantId: string, entityId: string) => `INCENT#${tenantId}#${entityId}`;
const notesPk = (tenantId: string, incidentId: string) => `INC#${tenantId}#${incidentId}`;
const PREFIX = 'inc_';

/** The incident opened by a transition: the transition's ULID under the `inc_` prefix (a redelivery finds it). */
export function incidentIdOf(transitionId: string): string {
  return `${PREFIX}${transitionId.slice(transitionId.indexOf('_') + 1)}`;
}

/** True when `value` has the shape of an incident id. */
export const isIncidentId = (value: string) => /^inc_[0-9A-HJKMNP-TV-Z]{26}$/.test(value);

const incident = defineItem({
  type: itemType('incident'),
  schema: incidentSchema,
  key: (k: { tenant_id: string; id: string }) => ({ pk: incidentsPk(k.tenant_id), sk: k.id }),
  gsi1: (r) => ({ pk: entityIncidentsPk(r.tenant_id, r.entity_id), sk: r.id }),
  docKey: { tenant_id: '<tnt>', id: '<inc_id>' },
});

const openPointer = defineItem({
  type: itemType('incident_open'),
  schema: z.object({ incident_id: z.string() }),
  key: (k: { tenant_id: string; entity_id: string }) => ({
    pk: incidentsPk(k.tenant_id),
    sk: `OPEN#${k.entity_id}`,
  }),
  keyOf: null,
  docKey: { tenant_id: '<tnt>', entity_id: '<ent_id>' },
});

const note = defineItem({
  type: itemType('incident_note'),
  schema: noteSchema,
  // Notes sort by time, then by a random tail so two notes of the same millisecond both stay.
  key: (k: { tenant_id: string; incident_id: string; seq: string }) => ({
    pk: notesPk(k.tenant_id, k.incident_id),
    sk: `NOTE#${k.seq}`,
  }),
  keyOf: null,
  docKey: { tenant_id: '<tnt>', incident_id: '<inc_id>', seq: '<created_at>#<random>' },
});

/** One incident of the tenant (consistent), or undefined. */
export function getIncident(table: Table, tenantId: string, id: string): Promise<IncidentRecord | undefined> {
  if (!isIncidentId(id)) return Promise.resolve(undefined);
  return incident.get(table, { tenant_id: tenantId, id }, { consistent: true });
}

/** The entity's open (or acknowledged) incident (consistent), or undefined. */
export async function readOpenIncidentRecord(
  table: Table,
  tenantId: string,
  entityId: string,
): Promise<IncidentRecord | undefined> {
  const pointer = await openPointer.get(
    table,
    { tenant_id: tenantId, entity_id: entityId },
    { consistent: true },
  );
  if (!pointer) return undefined;
  const record = await getIncident(table, tenantId, pointer.incident_id);
  return record && record.state !== 'resolved' ? record : undefined;
}

/**
 * What the routing engineer's escalation and the notifier's repeats need of the entity's open
 * incident: its id, state and times, or undefined when the entity has none.
 */
export async function readOpenIncident(
  table: Table,
  tenantId: string,
  entityId: string,
): Promise<Pick<IncidentRecord, 'id' | 'state' | 'opened_at' | 'acknowledged_at'> | undefined> {
  const record = await readOpenIncidentRecord(table, tenantId, entityId);
  return (
    record && {
      id: record.id,
      state: record.state,
      opened_at: record.opened_at,
      acknowledged_at: record.acknowledged_at,
    }
  );
}

/** Filters and page of GET /v1/incidents. */
export interface IncidentListRequest extends PageRequest {
  state?: IncidentState | undefined;
  entity_id?: string | undefined;
}

/** A page of the tenant's incidents, newest first (an entity's through gsi1); sealed cursors. */
export async function readIncidents(
  deps: PageDeps,
  tenantId: string,
  request: IncidentListRequest,
): Promise<{ incidents: IncidentRecord[]; nextCursor: Page['nextCursor'] }> {
  const source = request.entity_id
    ? { index: 'gsi1' as const, pk: entityIncidentsPk(tenantId, request.entity_id), prefix: PREFIX }
    : { pk: incidentsPk(tenantId), prefix: PREFIX };
  const read = await readPage(
    deps,
    source,
    request,
    (item) => incident.is(item) && (request.state === undefined || item.state === request.state),
  );
  return { incidents: read.items.map((item) => incident.parse(item)), nextCursor: read.nextCursor };
}

/** The newest of the tenant's incidents `keep` accepts, of at most `scan` read (a status page's; eventually consistent). */
export async function readRecentIncidents(
  table: Table,
  tenantId: string,
  options: { want: number; scan: number; keep: (record: IncidentRecord) => boolean },
): Promise<IncidentRecord[]> {
  const source = { pk: incidentsPk(tenantId), sk: { op: 'beginsWith', prefix: PREFIX } } as const;
  const kept: IncidentRecord[] = [];
  let cursor: string | undefined;
  let read = 0;
  do {
    const page = await table.query({ ...source, direction: 'desc', limit: options.scan - read, cursor });
    read += page.items.length;
    kept.push(...incident.parseAll(page.items).filter(options.keep));
    cursor = page.cursor;
  } while (kept.length < options.want && cursor && read < options.scan);
  return kept.slice(0, options.want);
}

/** The incident's notes, oldest first (consistent), at most NOTE_LIMITS.perIncident. */
export async function readNotes(table: Table, tenantId: string, incidentId: string): Promise<NoteRecord[]> {
  const items = await queryAll(
    (cursor) =>
      table.query({
        pk: notesPk(tenantId, incidentId),
        sk: { op: 'beginsWith', prefix: 'NOTE#' },
        consistent: true,
        cursor,
      }),
    NOTE_LIMITS.perIncident,
  );
  return note.parseAll(items);
}

/** Runs `ops`; false when a condition failed (the write was made before, or is not due). */
async function conditional(table: Table, ops: WriteOp[]): Promise<boolean> {
  try {
    await table.transact(ops);
    return true;
  } catch (error) {
    if (error instanceof ConditionFailedError) return false;
    throw error;
  }
}

/**
 * Opens an incident with its entity's open pointer; false when it exists already (a redelivered
 * transition), the entity has another open incident, or one of the caller's `holds` (condition
 * checks of other owners' items, in the same transaction) fails: nothing is written then.
 */
export function openIncident(table: Table, record: IncidentRecord, holds: WriteOp[] = []): Promise<boolean> {
  return conditional(table, [
    ...holds,
    incident.put(record, { kind: 'itemNotExists' }),
    openPointer.putAt(
      { tenant_id: record.tenant_id, entity_id: record.entity_id },
      { incident_id: record.id },
      { kind: 'itemNotExists' },
    ),
  ]);
}

/** How an incident was resolved: when, by which transition (none when the entity was deleted), and why. */
export interface Resolution {
  at: string;
  transitionId: string | null;
  cause: NonNullable<IncidentRecord['resolution']>;
}

/** Resolves an unresolved incident and drops its entity's pointer; false when it was resolved already. */
export function resolveIncident(
  table: Table,
  record: IncidentRecord,
  resolution: Resolution,
): Promise<boolean> {
  return conditional(table, [
    incident.update(
      { tenant_id: record.tenant_id, id: record.id },
      {
        set: {
          state: 'resolved',
          resolved_at: resolution.at,
          resolving_transition_id: resolution.transitionId,
          resolution: resolution.cause,
        },
        condition: { kind: 'compare', attr: 'state', op: '<>', value: 'resolved' },
      },
    ),
    openPointer.delete(
      { tenant_id: record.tenant_id, entity_id: record.entity_id },
      { kind: 'compare', attr: 'incident_id', op: '=', value: record.id },
    ),
  ]);
}

/** Acknowledges an open incident; false when it is no longer open (acknowledged or resolved meanwhile). */
export function acknowledgeIncident(
  table: Table,
  key: { tenant_id: string; id: string },
  at: string,
  by: string,
): Promise<boolean> {
  return conditional(table, [
    incident.update(key, {
      set: { state: 'acknowledged', acknowledged_at: at, acknowledged_by: by },
      condition: { kind: 'compare', attr: 'state', op: '=', value: 'open' },
    }),
  ]);
}

/** Adds a note and counts it; false when the incident is gone or holds NOTE_LIMITS.perIncident notes. */
export function addNote(table: Table, tenantId: string, record: NoteRecord, seq: string): Promise<boolean> {
  return conditional(table, [
    incident.update(
      { tenant_id: tenantId, id: record.incident_id },
      {
        add: { note_count: 1 },
        condition: {
          kind: 'and',
          conditions: [{ kind: 'itemExists' }, belowLimit('note_count', NOTE_LIMITS.perIncident)],
        },
      },
    ),
    note.putAt({ tenant_id: tenantId, incident_id: record.incident_id, seq }, record, {
      kind: 'itemNotExists',
    }),
  ]);
}
