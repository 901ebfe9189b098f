import { randomBytes } from 'node:crypto';
import type { TransitionRecord } from '../checks/results.ts';
import { isoTime } from '../domain/formats.ts';
import { NOTE_BLANK, NOTE_LIMITS } from '../domain/limits.ts';
import type { Principal } from '../domain/principal.ts';
import type { Clock } from '../platform/clock.ts';
import { ConflictError, NotFoundError, ValidationError } from '../platform/errors.ts';
import type { Logger } from '../platform/logger.ts';
import type { CursorSeal } from '../store/cursor-seal.ts';
import { transactIf } from '../store/items.ts';
import type { Table } from '../store/table.ts';
import {
  type AffectedRecord,
  affectedIncidentIdOf,
  isAffectedItem,
  readAffected,
  readAffectedPointer,
} from './affected-items.ts';
import { readAlsoFailing } from './also-failing-items.ts';
import { type EntityAddress, entityAddresses } from './entity-address.ts';
import { applyTransition, type InMaintenance } from './incident-consumer.ts';
import {
  acknowledgeIncident,
  getIncident,
  type IncidentListRequest,
  type IncidentRecord,
  noteCountedOp,
  readIncidents,
  readOpenIncidentRecord,
} from './incident-items.ts';
import { type NoteRecord, notePutOp, readNotes } from './incident-note-items.ts';
import { incidentExpiry, type RetentionDays, resolveExpiring } from './incident-retention.ts';
import { promoteAffected } from './root-cause.ts';
import { buildTimeline, type TimelineEntry, type TimelineSources } from './timeline.ts';

/** What the API shows of an incident (DECISIONS.md's record). */
export interface PublicIncident {
  id: string;
  entity_id: string;
  entity_name: string;
  /** Where the entity's page is (its blueprint's slug and its own); null once the entity is gone. */
  blueprint_slug: string | null;
  entity_slug: string | null;
  state: IncidentRecord['state'];
  opened_at: string;
  acknowledged_at: string | null;
  acknowledged_by: string | null;
  resolved_at: string | null;
  /** Until resolution, or until now while it is open. */
  duration_seconds: number;
  in_maintenance: boolean;
}

/** An entity that joined the incident (it depends on the incident's entity and went down while it was down). */
interface AffectedEntity {
  entity_id: string;
  name: string;
  /** Its state as the incident knows it: `up` once it recovered inside it. */
  state: AffectedRecord['state'];
  /** When that state began. */
  at: string;
  /** Its own incident, opened when this one resolved while it was still down; null otherwise. */
  own_incident_id: string | null;
}

export interface IncidentDetail extends PublicIncident {
  affected: AffectedEntity[];
  timeline: TimelineEntry[];
  timeline_truncated: boolean;
}

export interface IncidentServiceDeps {
  table: Table;
  clock: Clock;
  logger: Logger;
  cursors: CursorSeal;
  sources: TimelineSources;
  /** The tenant's retention: what a resolved incident's notes expire with. */
  retentionDays: RetentionDays;
  inMaintenance?: InMaintenance | undefined;
  /** Called once an incident was acknowledged (notify tells the providers that track incidents). */
  onAcknowledged?: ((record: IncidentRecord) => Promise<void>) | undefined;
  /** Called once an incident was resolved by hand (lib/escalation tells the people its climb paged). */
  onResolved?: ((record: IncidentRecord) => Promise<void>) | undefined;
}

type Caller = Pick<Principal, 'tenantId' | 'userId'>;

function publicIncident(
  record: IncidentRecord,
  nowMs: number,
  address: EntityAddress | undefined,
): PublicIncident {
  const endMs = record.resolved_at ? Date.parse(record.resolved_at) : nowMs;
  return {
    id: record.id,
    entity_id: record.entity_id,
    entity_name: record.entity_name,
    blueprint_slug: address?.blueprint_slug ?? null,
    entity_slug: address?.slug ?? null,
    state: record.state,
    opened_at: record.opened_at,
    acknowledged_at: record.acknowledged_at,
    acknowledged_by: record.acknowledged_by,
    resolved_at: record.resolved_at,
    duration_seconds: Math.max(0, Math.floor((endMs - Date.parse(record.opened_at)) / 1000)),
    in_maintenance: record.in_maintenance,
  };
}

const notFound = () => new NotFoundError('incident not found');

/** Incidents as the routes and MCP tools read and change them. */
export function createIncidentService(deps: IncidentServiceDeps) {
  const { table, clock } = deps;
  const require = async (tenantId: string, id: string): Promise<IncidentRecord> => {
    const record = await getIncident(table, tenantId, id);
    if (!record) throw notFound();
    return record;
  };
  /** The answer for one record, with its entity's address. */
  const answer = async (tenantId: string, record: IncidentRecord) =>
    publicIncident(
      record,
      clock.now(),
      (await entityAddresses(table, tenantId, [record.entity_id])).get(record.entity_id),
    );

  /**
   * Acknowledges an open incident for the caller (stops its repeats and escalation). An
   * acknowledged or resolved one answers as it is (idempotent: the first acknowledgement stays;
   * a resolved incident has nothing left to stop).
   */
  const acknowledge = async (caller: Caller, id: string): Promise<PublicIncident> => {
    const record = await require(caller.tenantId, id);
    if (record.state !== 'open') {
      // Tried again after the hook failed (its job not queued): queued now (its job is idempotent).
      if (record.state === 'acknowledged') await deps.onAcknowledged?.(record);
      return answer(caller.tenantId, record);
    }
    const acknowledged = await acknowledgeIncident(
      table,
      { tenant_id: caller.tenantId, id },
      isoTime(clock.now()),
      caller.userId,
    );
    const now = await require(caller.tenantId, id);
    if (acknowledged) await deps.onAcknowledged?.(now);
    return answer(caller.tenantId, now);
  };

  return {
    /** A page of the tenant's incidents, newest first. */
    async list(caller: Caller, request: IncidentListRequest) {
      // An entity's list holds the root causes' incidents it was affected in, too.
      const joined = { is: isAffectedItem, incidentIdOf: affectedIncidentIdOf };
      const read = await readIncidents({ table, cursors: deps.cursors }, caller.tenantId, request, joined);
      const addresses = await entityAddresses(
        table,
        caller.tenantId,
        read.incidents.map((r) => r.entity_id),
      );
      const nowMs = clock.now();
      const incidents = read.incidents.map((r) => publicIncident(r, nowMs, addresses.get(r.entity_id)));
      return { incidents, next_cursor: read.nextCursor };
    },

    /** One incident with its timeline. */
    async get(caller: Caller, id: string): Promise<IncidentDetail> {
      const record = await require(caller.tenantId, id);
      const [notes, also, affected] = await Promise.all([
        record.note_count > 0 ? readNotes(table, caller.tenantId, id) : [],
        readAlsoFailing(table, caller.tenantId, id),
        readAffected(table, caller.tenantId, id),
      ]);
      const nowMs = clock.now();
      const built = await buildTimeline(
        { table, sources: deps.sources, nowMs },
        record,
        notes,
        also,
        affected,
      );
      return {
        ...(await answer(caller.tenantId, record)),
        affected: affected.map((a) => ({
          entity_id: a.entity_id,
          name: a.entity_name,
          state: a.state,
          at: a.at,
          own_incident_id: a.own_incident_id ?? null,
        })),
        timeline: built.timeline,
        timeline_truncated: built.truncated,
      };
    },

    acknowledge,

    /** Acknowledges the entity's open incident as `by` (an integration whose sender acknowledged), if it has one. */
    async acknowledgeOpenOf(tenantId: string, entityId: string, by: string): Promise<void> {
      const open = await readOpenIncidentRecord(table, tenantId, entityId);
      // An entity affected in its root cause's incident has none of its own: the root's covers it.
      const id = open?.id ?? (await readAffectedPointer(table, tenantId, entityId));
      if (id) await acknowledge({ tenantId, userId: by }, id);
    },

    /** The entities affected in an incident and not up again there (what its acknowledgement covers too). */
    async affectedDown(tenantId: string, incidentId: string): Promise<string[]> {
      const affected = await readAffected(table, tenantId, incidentId);
      return affected.filter((a) => a.state !== 'up' && !a.own_incident_id).map((a) => a.entity_id);
    },

    /**
     * Resolves an unresolved incident by hand for the caller (stops its repeats and escalation; the
     * entity's state is unchanged, and its next departure from up opens a new incident). A resolved
     * one answers as it is (idempotent: the first resolution stays).
     */
    async resolve(caller: Caller, id: string): Promise<PublicIncident> {
      const record = await require(caller.tenantId, id);
      if (record.state === 'resolved') {
        // Tried again after the hook failed (its job not queued): queued now (its job is idempotent).
        await deps.onResolved?.(record);
        return answer(caller.tenantId, record);
      }
      const resolved = await resolveExpiring({ table, retentionDays: deps.retentionDays }, record, {
        at: isoTime(clock.now()),
        transitionId: null,
        cause: 'manual',
        by: caller.userId,
      });
      const now = await require(caller.tenantId, id);
      // Its affected entities still down open their own (also on a retry: promotion is idempotent).
      if (now.state === 'resolved') await promoteAffected(deps, now, now.resolved_at ?? isoTime(clock.now()));
      if (resolved) await deps.onResolved?.(now);
      return answer(caller.tenantId, now);
    },

    /** Adds a note (at most NOTE_LIMITS.maxBytes bytes, NOTE_LIMITS.perIncident per incident). */
    async addNote(caller: Caller, id: string, text: string): Promise<NoteRecord> {
      // The route's schema says the same; MCP's add-note tool reaches this without it.
      if (!/\S/u.test(text)) throw ValidationError.field('text', NOTE_BLANK);
      if (Buffer.byteLength(text, 'utf8') > NOTE_LIMITS.maxBytes)
        throw ValidationError.field('text', `Use at most ${NOTE_LIMITS.maxBytes} bytes.`);
      const atMs = clock.now();
      const now = isoTime(atMs);
      const note: NoteRecord = { incident_id: id, text, created_by: caller.userId, created_at: now };
      const seq = `${now}#${randomBytes(6).toString('hex')}`;
      // A note on a resolved incident expires with it; one on an unresolved incident is given its
      // expiry by the resolution, and is refused once that happened (read again: it then has one).
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const record = await require(caller.tenantId, id);
        if (record.note_count >= NOTE_LIMITS.perIncident) throw tooManyNotes();
        const expiresAt = record.resolved_at
          ? incidentExpiry(record.resolved_at, await deps.retentionDays(caller.tenantId))
          : undefined;
        const ops = [
          noteCountedOp({ tenantId: caller.tenantId, incidentId: id, atMs }, expiresAt === undefined),
          notePutOp(caller.tenantId, note, seq, expiresAt),
        ];
        if (await transactIf(table, ops)) return note;
        if (expiresAt !== undefined) break;
      }
      throw tooManyNotes();
    },

    /** Applies an entity transition as the change feed would (the route-table fixtures seed incidents with it). */
    apply: (transition: TransitionRecord) =>
      applyTransition(
        { table, logger: deps.logger, retentionDays: deps.retentionDays, inMaintenance: deps.inMaintenance },
        transition,
      ),
  };
}

const tooManyNotes = () => new ConflictError(`incident already holds ${NOTE_LIMITS.perIncident} notes`);

export type IncidentService = ReturnType<typeof createIncidentService>;
