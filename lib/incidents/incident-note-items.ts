import * as z from 'zod';
import { defineItem } from '../store/item-definition.ts';
import { itemType } from '../store/item-type.ts';
import { queryAll, transactIf } from '../store/items.ts';
import type { Table, WriteOp } from '../store/table.ts';

/**
 * Owner of `incident_note`: an incident's notes, in the incident's own partition
 * (`INC#<tnt>#<inc_id>`). A note is put together with its count on the incident
 * (incident-items.ts `noteCountedOp`), which bounds them. Notes expire with their incident: a note
 * written after the resolution carries the incident's expiry, the resolution gives the others theirs
 * (expireNotes).
 */

/** Notes one incident holds at most (NOTE_LIMITS.perIncident of incident-items.ts). */
const MAX_NOTES = 200;

const noteSchema = z.object({
  incident_id: z.string(),
  text: z.string(),
  /** The user id of the key that wrote it. */
  created_by: z.string(),
  created_at: z.string(),
});
export type NoteRecord = z.infer<typeof noteSchema>;

const notesPk = (tenantId: string, incidentId: string) => `INC#${tenantId}#${incidentId}`;

const note = defineItem({
  type: itemType('incident_note'),
  schema: noteSchema,
  // Notes sort by time, then by a random tail so two notes of the same millisecond both stay.
  key: (k: { tenant_id: string; incident_id: string; seq: string }) => ({
    pk: notesPk(k.tenant_id, k.incident_id),
    sk: `NOTE#${k.seq}`,
  }),
  keyOf: null,
  ttl: (_r, c: { expiresAt: number | undefined }) => c.expiresAt,
  docKey: { tenant_id: '<tnt>', incident_id: '<inc_id>', seq: '<created_at>#<random>' },
});

const noteItems = (table: Table, tenantId: string, incidentId: string) =>
  queryAll(
    (cursor) =>
      table.query({
        pk: notesPk(tenantId, incidentId),
        sk: { op: 'beginsWith', prefix: 'NOTE#' },
        consistent: true,
        cursor,
      }),
    MAX_NOTES,
  );

/** The incident's notes, oldest first (consistent), at most 200. */
export async function readNotes(table: Table, tenantId: string, incidentId: string): Promise<NoteRecord[]> {
  return note.parseAll(await noteItems(table, tenantId, incidentId));
}

/** Gives every note of the incident the expiry `ttl` (its incident's: the resolution sets it). */
export async function expireNotes(table: Table, tenantId: string, incidentId: string, ttl: number) {
  for (const item of await noteItems(table, tenantId, incidentId)) {
    const seq = item.sk.slice('NOTE#'.length);
    const key = { tenant_id: tenantId, incident_id: incidentId, seq };
    // itemExists: an update upserts, and a note expired meanwhile must not come back bare.
    await transactIf(table, [note.update(key, { ttl, condition: { kind: 'itemExists' } })]);
  }
}

/**
 * The put of a new note (`seq`: its time and a random tail), with noteCountedOp in one transaction;
 * `expiresAt`: its resolved incident's expiry, undefined while the incident is unresolved.
 */
export function notePutOp(
  tenantId: string,
  record: NoteRecord,
  seq: string,
  expiresAt: number | undefined,
): WriteOp {
  const key = { tenant_id: tenantId, incident_id: record.incident_id, seq };
  return note.putAt(key, record, { kind: 'itemNotExists' }, { expiresAt });
}
