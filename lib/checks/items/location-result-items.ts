import * as z from 'zod';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import type { PageSource } from '../../store/paging.ts';
import type { Item, QueryInput, Table, WriteOp } from '../../store/table.ts';

/**
 * Owner of the `location_result` items: what one location reported for one slot of a located
 * check (lib/domain/states/quorum.ts), in the check's location partition `LOCRES#<chk>`, keyed by slot
 * and location, immutable (a location's second report of a slot is refused), expiring with the
 * tenant's retention. The slot's decided result (a `result` item) names each location's outcome;
 * these rows keep each location's own latency and error for the results API and uptime.
 */

const locationResultSchema = z.object({
  tenant_id: z.string(),
  check_id: z.string(),
  slot_ms: z.number().int(),
  location: z.string(),
  success: z.boolean(),
  degraded: z.boolean().optional(),
  status_code: z.number().int(),
  latency_ms: z.number().int(),
  error_message: z.string(),
  /** When the location's probe began (ISO). */
  checked_at: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
  /** The slot was a manual run's (its location job said so): the decided result is `manual`. */
  manual: z.literal(true).optional(),
});
export type LocationResultRecord = z.infer<typeof locationResultSchema>;

const slotKey = (slotMs: number) => String(slotMs).padStart(15, '0');
const partition = (checkId: string) => `LOCRES#${checkId}`;

const locationResult = defineItem({
  type: itemType('location_result'),
  schema: locationResultSchema,
  key: (k: { check_id: string; slot_ms: number; location: string }) => ({
    pk: partition(k.check_id),
    sk: `${slotKey(k.slot_ms)}#${k.location}`,
  }),
  keyOf: (r) => ({ check_id: r.check_id, slot_ms: r.slot_ms, location: r.location }),
  ttl: (_r, ttl: number) => ttl,
  docKey: { check_id: '<chk>', slot_ms: '<slot ms, 15 digits>', location: '<location name>' },
});

/** The put of a location's result for a slot, only if it has none (a second report is a duplicate). */
export function locationResultOp(record: LocationResultRecord, ttlSeconds: number): WriteOp {
  return locationResult.put(record, { kind: 'itemNotExists' }, ttlSeconds);
}

/** Every location's result for one slot (consistent: a decision reads what was just stored). */
export async function slotLocationResults(
  table: Table,
  checkId: string,
  slotMs: number,
): Promise<LocationResultRecord[]> {
  const page = await table.query({
    pk: partition(checkId),
    sk: { op: 'beginsWith', prefix: `${slotKey(slotMs)}#` },
    limit: 100,
    consistent: true,
  });
  return locationResult.parseAll(page.items);
}

/**
 * The paged list of a check's location results, newest slot first, for sealed cursors (the
 * partition holds only these: `query` reads it without a sort-key condition).
 */
export function locationResultsSource(checkId: string): {
  source: PageSource;
  query: Omit<QueryInput, 'direction' | 'limit' | 'cursor'>;
} {
  return {
    source: { pk: partition(checkId), prefix: '' },
    query: { pk: partition(checkId), consistent: true },
  };
}

/** A location result read through `locationResultsSource`. */
export function parseLocationResult(item: Item): LocationResultRecord {
  return locationResult.parse(item);
}
