import * as z from 'zod';
import { defineItem } from '../store/item-definition.ts';
import { itemType } from '../store/item-type.ts';
import { queryAll, transactIf } from '../store/items.ts';
import type { Table, WriteOp } from '../store/table.ts';

/**
 * The owner of `incident_also_failing` items (docs/data-model.md, Incidents): a check that started
 * failing while its entity was already down with an open incident joins that incident (issue 35,
 * "also failing"), one item per incident and check, kept with the incident. The timeline shows it
 * and later repeats, escalations and digests name it; it pages nobody. It joins an unresolved
 * incident only, and expires with it (the resolution gives it the incident's expiry: expireAlsoFailing).
 */

const alsoFailingSchema = z.object({
  incident_id: z.string(),
  check_id: z.string(),
  check_name: z.string(),
  /** When the check's transition happened. */
  at: z.string(),
});
export type AlsoFailingRecord = z.infer<typeof alsoFailingSchema>;

const items = defineItem({
  type: itemType('incident_also_failing'),
  schema: alsoFailingSchema,
  key: (k: { tenant_id: string; incident_id: string; check_id: string }) => ({
    pk: `ALSOFAIL#${k.tenant_id}#${k.incident_id}`,
    sk: `CHK#${k.check_id}`,
  }),
  keyOf: null,
  docKey: { tenant_id: '<tnt>', incident_id: '<inc_id>', check_id: '<chk_id>' },
});

/**
 * Records the check on the incident; false when it is there already (a redelivered transition) or
 * one of `holds` fails (the caller's check that the incident is still unresolved).
 */
export function addAlsoFailing(
  table: Table,
  tenantId: string,
  record: AlsoFailingRecord,
  holds: WriteOp[],
): Promise<boolean> {
  return transactIf(table, [
    ...holds,
    items.putAt({ tenant_id: tenantId, ...record }, record, { kind: 'itemNotExists' }),
  ]);
}

/** The checks that joined an incident (consistent), oldest first; at most one per check of the entity. */
export async function readAlsoFailing(
  table: Table,
  tenantId: string,
  incidentId: string,
): Promise<AlsoFailingRecord[]> {
  const found = await storedFor(table, tenantId, incidentId);
  return found.map((item) => items.parse(item)).sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}

const storedFor = (table: Table, tenantId: string, incidentId: string) => {
  const pk = items.key({ tenant_id: tenantId, incident_id: incidentId, check_id: '' }).pk;
  return queryAll((cursor) => table.query({ pk, cursor, consistent: true }));
};

/** Gives the incident's also-failing items the expiry `ttl` (the incident's, set by its resolution). */
export async function expireAlsoFailing(table: Table, tenantId: string, incidentId: string, ttl: number) {
  for (const record of (await storedFor(table, tenantId, incidentId)).map((item) => items.parse(item))) {
    const key = { tenant_id: tenantId, incident_id: incidentId, check_id: record.check_id };
    // itemExists: an update upserts, and an item expired meanwhile must not come back bare.
    await transactIf(table, [items.update(key, { ttl, condition: { kind: 'itemExists' } })]);
  }
}
