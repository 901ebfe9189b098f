import { z } from 'zod';
import type { Table } from '../store/table.ts';
import { STATUS_COUNTERS_MIGRATED, statusKeys } from './status-index.ts';

/**
 * The tenant's status counters, when they can be trusted: once the tenant was seeded (its own
 * `seeded` flag) or once every tenant was (the migration marker: a tenant created after it has
 * counted every entity since its first, and one with no counter item yet has none).
 */

const countersSchema = z.object({
  up: z.number().int().default(0),
  degraded: z.number().int().default(0),
  down: z.number().int().default(0),
  unknown: z.number().int().default(0),
  seeded: z.boolean().optional(),
});

export interface Counts {
  total: number;
  up: number;
  degraded: number;
  down: number;
  unknown: number;
}

/** Tables whose migration marker was seen: it is never removed, so it is read once per process. */
const migrated = new WeakSet<Table>();

/** Whether every tenant of `table` has been seeded (the marker exists). */
export async function allSeeded(table: Table): Promise<boolean> {
  if (migrated.has(table)) return true;
  if (!(await table.get(STATUS_COUNTERS_MIGRATED, { consistent: true }))) return false;
  migrated.add(table);
  return true;
}

/** The tenant's counts from its counters, or undefined while they are not seeded yet. */
export async function readCounts(table: Table, tenantId: string): Promise<Counts | undefined> {
  const [item, all] = await Promise.all([
    table.get(statusKeys.counters(tenantId), { consistent: true }),
    allSeeded(table),
  ]);
  const counters = countersSchema.parse(item ?? {});
  if (!all && counters.seeded !== true) return undefined;
  const { up, degraded, down, unknown } = counters;
  return { total: up + degraded + down + unknown, up, degraded, down, unknown };
}
