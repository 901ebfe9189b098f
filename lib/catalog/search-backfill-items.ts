import * as z from 'zod';
import { defineItem } from '../store/item-definition.ts';
import { itemType } from '../store/item-type.ts';
import type { Table, WriteOp } from '../store/table.ts';

/**
 * The marker of the entity search keys' backfill (lib/catalog/search-backfill.ts): written once
 * every tenant's id pointers carry their name and search index keys, so later runs read only it.
 */
const marker = defineItem({
  type: itemType('migration'),
  schema: z.object({ pointers_named: z.number().int().optional(), completed_at: z.string().optional() }),
  key: (_: object) => ({ pk: 'MIGRATION', sk: 'entity-search-keys' }),
  docKey: {},
});

/** Whether the backfill has completed (consistent). */
export async function searchKeysBackfilled(table: Table): Promise<boolean> {
  return (await marker.get(table, {}, { consistent: true })) !== undefined;
}

/** The put of the backfill's marker. */
export function searchKeysMarkerOp(named: number, completedAt: string): WriteOp {
  return marker.put({ pointers_named: named, completed_at: completedAt });
}
