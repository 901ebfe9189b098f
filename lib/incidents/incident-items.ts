import * as z from 'zod';
import { INCIDENT_STATES, type IncidentState, NOTE_LIMITS } from '../domain/limits.ts';
import { newId } from '../platform/ids.ts';
import type { Change } from '../store/change-feed.ts';
import { belowLimit } from '../store/conditions.ts';
import { defineItem } from '../store/item-definition.ts';
import { itemType } from '../store/item-type.ts';
import { queryAll, transactIf } from '../store/items.ts';
import { type Page, type PageDeps, type PageRequest, readNewestFirst, readPage } from '../store/paging.ts';
import {
  readMerged,
  readMergedPage,
  relocatePartition,
  shardOf,
  shardPartitions,
} from '../store/sharded-feed.ts';
import type { Item, Table, WriteOp } from '../store/table.ts';

/**
 * Owner of `incident` and `incident_open` (notes: incident-note-items.ts). An incident is one episode of an
 * entity away from up; it lives in one of the tenant's 16 incident shards (`INC#<tnt>#<nn>`, the
 * shard its id hashes to, sort key its id, time-ordered: lists merge the shards newest first; see
 * store/sharded-feed.ts) and on gsi1 under its entity. `incident_open`, in the shard of its entity, is the
 * entity's pointer to its open incident, written and deleted with the incident's opening and
 * resolution in one transaction: at most one open incident per entity, found with one read.
 * An incident expires (ttl) the tenant's retention after its resolution, never while unresolved.
 * A change no entity transition tells (acknowledged, a note, resolved by hand or by its entity's
 * deletion) puts it on gsi2 under the tenant's incident changes (`INCCHG#<tnt>`, sort key a new
 * time-ordered `ich_` id): what the live streams follow (lib/status/stream-follow.ts).
 */

const incidentSchema = z.object({
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
  /** What resolved it: the entity up (its transition above), deleted (its purge), or a person (`manual`); absent while unresolved and on old (`up`) ones. */
  resolution: z.enum(['up', 'entity_deleted', 'manual']).optional(),
  /** The user id of the key that resolved it by hand (`manual` only). */
  resolved_by: z.string().optional(),
  note_count: z.number().int(),
});
export type IncidentRecord = z.infer<typeof incidentSchema>;

const incidentsPk = (tenantId: string) => `INC#${tenantId}`;
const incidentKey = (tenantId: string, id: string) => ({ tenant_id: tenantId, id, shard: shardOf(id) });
const pointerKey = (tenantId: string, entityId: string) => ({
  tenant_id: tenantId,
  entity_id: entityId,
  shard: shardOf(entityId),
});
/** The merged list of the tenant's incidents (named by the partition it had before the shards). */
const incidentList = (tenantId: string) => ({
  pk: incidentsPk(tenantId),
  pks: shardPartitions(incidentsPk(tenantId)),
  prefix: PREFIX,
});
const entityIncidentsPk = (tenantId: string, entityId: string) => `INCENT#${tenantId}#${entityId}`;
const PREFIX = 'inc_';
const changesPk = (tenantId: string) => `INCCHG#${tenantId}`;
/** The gsi2 entry of a change at `atMs` (module header). */
const changed = (tenantId: string, atMs: number) => ({
  gsi2: { pk: changesPk(tenantId), sk: newId('ich', atMs) },
});

/** The incident opened by a transition: the transition's ULID under the `inc_` prefix (a redelivery finds it). */
export function incidentIdOf(transitionId: string): string {
  return `${PREFIX}${transitionId.slice(transitionId.indexOf('_') + 1)}`;
}

/** True when `value` has the shape of an incident id. */
export const isIncidentId = (value: string) => /^inc_[0-9A-HJKMNP-TV-Z]{26}$/.test(value);

const incident = defineItem({
  type: itemType('incident'),
  schema: incidentSchema,
  key: (k: { tenant_id: string; id: string; shard: string }) => ({
    pk: `${incidentsPk(k.tenant_id)}#${k.shard}`,
    sk: k.id,
  }),
  keyOf: (r) => incidentKey(r.tenant_id, r.id),
  gsi1: (r) => ({ pk: entityIncidentsPk(r.tenant_id, r.entity_id), sk: r.id }),
  indexedExplicitly: ['gsi2'],
  docKey: { tenant_id: '<tnt>', id: '<inc_id>', shard: '<shard>' },
});

/** The incident's item type: the local outbox keeps its changes for the live hub (lib/status/stream-hub.ts). */
export const INCIDENT_ENTITY = incident.entity;

const openPointer = defineItem({
  type: itemType('incident_open'),
  schema: z.object({ incident_id: z.string() }),
  key: (k: { tenant_id: string; entity_id: string; shard: string }) => ({
    pk: `${incidentsPk(k.tenant_id)}#${k.shard}`,
    sk: `OPEN#${k.entity_id}`,
  }),
  keyOf: null,
  docKey: { tenant_id: '<tnt>', entity_id: '<ent_id>', shard: '<shard>' },
});

/** One incident of the tenant (consistent), or undefined. */
export function getIncident(table: Table, tenantId: string, id: string): Promise<IncidentRecord | undefined> {
  if (!isIncidentId(id)) return Promise.resolve(undefined);
  return incident.get(table, incidentKey(tenantId, id), { consistent: true });
}

/**
 * The entity's newest incident opened at or before incident id `k.at` (gsi1), or undefined; the
 * entries of root causes' incidents it was affected in (affected-items.ts) share the partition and
 * are read past.
 */
export async function incidentAtOrBefore(table: Table, k: { tenant: string; entity: string; at: string }) {
  const query = {
    index: 'gsi1',
    pk: entityIncidentsPk(k.tenant, k.entity),
    sk: { op: '<=', value: k.at },
  } as const;
  const read = await readNewestFirst(table, query, { want: 1, keep: incident.is, cursor: undefined });
  return incident.parseAll(read)[0];
}

/** The entity's open (or acknowledged) incident (consistent), or undefined. */
export async function readOpenIncidentRecord(
  table: Table,
  tenantId: string,
  entityId: string,
): Promise<IncidentRecord | undefined> {
  const pointer = await openPointer.get(table, pointerKey(tenantId, entityId), { consistent: true });
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
  if (!record) return undefined;
  const { id, state, opened_at, acknowledged_at } = record;
  return { id, state, opened_at, acknowledged_at };
}

/** Filters and page of GET /v1/incidents. */
export interface IncidentListRequest extends PageRequest {
  state?: IncidentState | undefined;
  entity_id?: string | undefined;
}

/** Another owner's items an entity's incident list holds (the root causes' incidents it was affected in: affected-items.ts). */
export interface JoinedIncidents {
  is(item: Item): boolean;
  /** The incident such an item names. */
  incidentIdOf(item: Item): string;
}

/**
 * A page of the tenant's incidents, newest first (an entity's through gsi1, with the incidents
 * `joined` names: those are read afterwards, and a state filter applies to them then, so such a
 * page may hold fewer than its limit); sealed cursors.
 */
export async function readIncidents(
  deps: PageDeps,
  tenantId: string,
  request: IncidentListRequest,
  joined?: JoinedIncidents,
): Promise<{ incidents: IncidentRecord[]; nextCursor: Page['nextCursor'] }> {
  const wanted = (record: { state: unknown }) =>
    request.state === undefined || record.state === request.state;
  const keep = (item: Item) =>
    (incident.is(item) && wanted({ state: item.state })) || joined?.is(item) === true;
  const read = request.entity_id
    ? await readPage(
        deps,
        { index: 'gsi1', pk: entityIncidentsPk(tenantId, request.entity_id), prefix: PREFIX },
        request,
        keep,
      )
    : await readMergedPage(deps, incidentList(tenantId), request, keep);
  const incidents: IncidentRecord[] = [];
  for (const item of read.items) {
    const record = incident.is(item)
      ? incident.parse(item)
      : joined && (await getIncident(deps.table, tenantId, joined.incidentIdOf(item)));
    if (record && wanted(record)) incidents.push(record);
  }
  return { incidents, nextCursor: read.nextCursor };
}

/** The newest of the tenant's incidents `keep` accepts, of at most `scan` read (a status page's; eventually consistent). */
export async function readRecentIncidents(
  table: Table,
  tenantId: string,
  options: { want: number; scan: number; keep: (record: IncidentRecord) => boolean },
): Promise<IncidentRecord[]> {
  const keep = (item: Item) => incident.is(item) && options.keep(incident.parse(item));
  const list = incidentList(tenantId);
  const read = await readMerged(
    table,
    { pks: list.pks, low: PREFIX, high: `${PREFIX}\uffff`, direction: 'desc' },
    { want: options.want, keep, scan: options.scan },
  );
  return incident.parseAll(read.items);
}

/**
 * Opens an incident with its entity's open pointer; false when it exists already (a redelivered
 * transition), the entity has another open incident, or one of the caller's `holds` (condition
 * checks of other owners' items, in the same transaction) fails: nothing is written then.
 */
export function openIncident(table: Table, record: IncidentRecord, holds: WriteOp[] = []): Promise<boolean> {
  return transactIf(table, [
    ...holds,
    incident.put(record, { kind: 'itemNotExists' }),
    openPointer.putAt(
      pointerKey(record.tenant_id, record.entity_id),
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
  by?: string | undefined;
}

/** Resolves an unresolved incident (expiring at `ttl`) and drops its entity's pointer; false when resolved already. */
export function resolveIncident(
  table: Table,
  record: IncidentRecord,
  resolution: Resolution,
  ttl: number,
): Promise<boolean> {
  return transactIf(table, [
    incident.update(incidentKey(record.tenant_id, record.id), {
      ttl,
      set: {
        state: 'resolved',
        resolved_at: resolution.at,
        resolving_transition_id: resolution.transitionId,
        resolution: resolution.cause,
        ...(resolution.by === undefined ? {} : { resolved_by: resolution.by }),
      },
      // Its entity's `up` transition tells a resolution on `up` already.
      ...(resolution.cause === 'up' ? {} : { index: changed(record.tenant_id, Date.parse(resolution.at)) }),
      condition: { kind: 'compare', attr: 'state', op: '<>', value: 'resolved' },
    }),
    openPointer.delete(pointerKey(record.tenant_id, record.entity_id), {
      kind: 'compare',
      attr: 'incident_id',
      op: '=',
      value: record.id,
    }),
  ]);
}

/** Acknowledges an open incident; false when it is no longer open (acknowledged or resolved meanwhile). */
export function acknowledgeIncident(
  table: Table,
  key: { tenant_id: string; id: string },
  at: string,
  by: string,
): Promise<boolean> {
  return transactIf(table, [
    incident.update(incidentKey(key.tenant_id, key.id), {
      set: { state: 'acknowledged', acknowledged_at: at, acknowledged_by: by },
      index: changed(key.tenant_id, Date.parse(at)),
      condition: { kind: 'compare', attr: 'state', op: '=', value: 'open' },
    }),
  ]);
}

const unresolved = { kind: 'compare', attr: 'state', op: '<>', value: 'resolved' } as const;

/** A note's count (written at `atMs`), with its put: fails when the incident is gone, full, or (`whileUnresolved`: a note without expiry) resolved. */
export function noteCountedOp(
  k: { tenantId: string; incidentId: string; atMs: number },
  whileUnresolved: boolean,
) {
  const held = [{ kind: 'itemExists' } as const, belowLimit('note_count', NOTE_LIMITS.perIncident)];
  return incident.update(incidentKey(k.tenantId, k.incidentId), {
    add: { note_count: 1 },
    index: changed(k.tenantId, k.atMs),
    condition: { kind: 'and', conditions: whileUnresolved ? [...held, unresolved] : held },
  });
}

/** Holds a write on the incident being unresolved (what joins an open incident: also failing). */
export const incidentUnresolvedOp = (tenantId: string, incidentId: string): WriteOp =>
  incident.conditionCheck(incidentKey(tenantId, incidentId), unresolved);

/** Calls `each` with every resolved incident of the tenant stored without an expiry (before issue 36). */
export async function forEachUnexpiredResolved(
  table: Table,
  tenantId: string,
  each: (record: IncidentRecord) => Promise<void>,
): Promise<void> {
  for (const pk of shardPartitions(incidentsPk(tenantId))) {
    const query = (cursor: string | undefined) =>
      table.query({ pk, sk: { op: 'beginsWith', prefix: PREFIX }, cursor });
    for (const item of await queryAll(query)) {
      const record = incident.is(item) && item.ttl === undefined ? incident.parse(item) : undefined;
      if (record?.state === 'resolved') await each(record);
    }
  }
}

/** Sets the expiry of a resolved incident stored without one. */
export const incidentExpiryOp = (tenantId: string, incidentId: string, ttl: number): WriteOp =>
  incident.update(incidentKey(tenantId, incidentId), {
    ttl,
    condition: { kind: 'compare', attr: 'state', op: '=', value: 'resolved' },
  });

/**
 * Moves the tenant's incidents and open pointers from the partition they had before the shards
 * (`INC#<tnt>`) to their shards; returns how many moved. Idempotent, and safe while incidents
 * open: no change-feed consumer acts on incidents, and a moved one carries no change entry (gsi2),
 * so a move notifies no one.
 */
export function moveLegacyIncidents(table: Table, tenantId: string): Promise<number> {
  const absent = { kind: 'itemNotExists' } as const;
  return relocatePartition(table, incidentsPk(tenantId), (item) => {
    if (incident.is(item)) return incident.put(incident.parse(item), absent);
    if (!openPointer.is(item)) return undefined;
    const at = pointerKey(tenantId, item.sk.slice('OPEN#'.length));
    return openPointer.putAt(at, openPointer.parse(item), absent);
  });
}

/** One change of an incident a live stream tells: `id` (`ich_…`) is its place in the tenant's incident changes. */
export interface IncidentChange {
  id: string;
  tenant_id: string;
  incident_id: string;
  entity_id: string;
}

const changeOf = (item: Item): IncidentChange | undefined => {
  const record = incident.is(item) ? incident.parse(item) : undefined;
  const id = item.gsi2sk;
  if (!record || typeof id !== 'string') return undefined;
  return { id, tenant_id: record.tenant_id, incident_id: record.id, entity_id: record.entity_id };
};

/** The incident a change-feed record acknowledged (open before, acknowledged after), or undefined. */
export function acknowledgedIncidentOf(change: Change): IncidentRecord | undefined {
  const before = change.oldImage;
  const after = change.newImage;
  if (!before || !after || !incident.is(after) || before.state !== 'open' || after.state !== 'acknowledged')
    return undefined;
  return incident.parse(after);
}

/** The change a change-feed record of an incident made, when it is one the live streams tell (gsi2 moved). */
export function incidentChangeOf(change: Change): IncidentChange | undefined {
  const told = change.newImage && changeOf(change.newImage);
  return told && told.id !== change.oldImage?.gsi2sk ? told : undefined;
}

/** The tenant's incident changes after position `after`, oldest first, one page (gsi2: eventually consistent). */
export async function readIncidentChanges(
  table: Table,
  tenantId: string,
  after: string,
  limit: number,
): Promise<IncidentChange[]> {
  const read = await table.query({
    index: 'gsi2',
    pk: changesPk(tenantId),
    sk: { op: '>', value: after },
    limit,
  });
  return read.items.flatMap((item) => changeOf(item) ?? []);
}
