import * as z from 'zod';
import { defineItem } from '../store/item-definition.ts';
import { itemType } from '../store/item-type.ts';
import type { Table, WriteOp } from '../store/table.ts';

/** The marker of the incident expiry migration (incident-retention.ts `migrateIncidentExpiry`). */
const marker = defineItem({
  type: itemType('migration'),
  schema: z.object({ incidents_expiring: z.number().int(), completed_at: z.string() }),
  key: (_: object) => ({ pk: 'MIGRATION', sk: 'incident-expiry' }),
  docKey: {},
});

/** Whether every incident resolved before issue 36 was given its expiry (consistent). */
export async function incidentExpiryMigrated(table: Table): Promise<boolean> {
  return (await marker.get(table, {}, { consistent: true })) !== undefined;
}

/** The put of the incident expiry migration's marker. */
export function incidentExpiryMigratedOp(expiring: number, completedAt: string): WriteOp {
  return marker.put({ incidents_expiring: expiring, completed_at: completedAt });
}
