import { locationUptimeDays } from '../checks/results.ts';
import { locationsOf, probesFromLocations } from '../domain/states.ts';
import type { Table } from '../store/table.ts';

/**
 * Uptime per location of a located check (DECISIONS.md "Probe locations (wave 4)"): each
 * location's own reports, counted per UTC day when they are stored (`location_uptime`,
 * lib/checks/items/location-uptime-items.ts). The window's first and last days are read whole:
 * day counts cannot be cut, so a 24 h window reads the two UTC days it touches.
 */

export interface LocationUptime {
  location: string;
  /** up / total × 100, 3 decimals; null when the location reported nothing in the window. */
  uptime_percent: number | null;
  up: number;
  total: number;
}

/** up / total as a percentage with 3 decimals (the precision of a 5-decimal ratio), or null without reports. */
function uptimePercent(up: number, total: number): number | null {
  if (total === 0) return null;
  return Math.round((up / total) * 100_000) / 1000;
}

/**
 * The check's locations in its own order, then any location it no longer names that reported in
 * the window (by name), each with its counts over the days of [fromMs, toMs]. Undefined for a
 * check probed only by the runtime's own workers.
 */
export async function locationUptimeOf(
  table: Table,
  check: { id: string; locations?: readonly string[] | undefined },
  fromMs: number,
  toMs: number,
): Promise<LocationUptime[] | undefined> {
  if (!probesFromLocations(check)) return undefined;
  const counts = new Map<string, { up: number; total: number }>();
  for (const day of await locationUptimeDays(table, check.id, fromMs, toMs)) {
    const sum = counts.get(day.location) ?? { up: 0, total: 0 };
    sum.up += day.up;
    sum.total += day.total;
    counts.set(day.location, sum);
  }
  const named = locationsOf(check);
  const former = [...counts.keys()].filter((l) => !named.includes(l)).sort();
  return [...named, ...former].map((location) => {
    const { up, total } = counts.get(location) ?? { up: 0, total: 0 };
    return { location, uptime_percent: uptimePercent(up, total), up, total };
  });
}
