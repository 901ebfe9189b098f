import { countersMarker, readStatusCounters } from '../catalog/entities.ts';
import type { Table } from '../store/table.ts';

/**
 * The tenant's status counters, when they can be trusted: once the tenant was seeded (its own
 * `seeded` flag) or once every tenant was (the migration marker: a tenant created after it has
 * counted every entity since its first, and one with no counter item yet has none).
 */

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
async function allSeeded(table: Table): Promise<boolean> {
  if (migrated.has(table)) return true;
  if (!(await countersMarker.done(table))) return false;
  migrated.add(table);
  return true;
}

/** The tenant's counts from its counters, or undefined while they are not seeded yet. */
export async function readCounts(table: Table, tenantId: string): Promise<Counts | undefined> {
  const [counters, all] = await Promise.all([readStatusCounters(table, tenantId), allSeeded(table)]);
  if (!all && counters?.seeded !== true) return undefined;
  const { up = 0, degraded = 0, down = 0, unknown = 0 } = counters ?? {};
  return { total: up + degraded + down + unknown, up, degraded, down, unknown };
}
