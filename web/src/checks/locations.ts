import type { Schemas } from '../api/client';

/**
 * A check's probe locations (docs/locations.md, DECISIONS.md "Probe locations (wave 4)"): where it
 * is probed from and the quorum of failures that fails a slot. The rules the form and the check
 * page need are the API's (lib/domain/states/quorum.ts), repeated here: the console builds apart from lib.
 */

/** One location's part in a decided slot (a result's `locations[]`, a check's `last_locations`). */
export type LocationOutcome = Schemas['LocationOutcome'];

/** What a check answer says of its locations: the names and the effective quorum. */
type Located = Pick<Schemas['Check'], 'locations' | 'quorum'>;

/** The runtime's own workers: every check's location unless it names others. */
export const DEFAULT_LOCATION = 'default';

/** Whether a check is probed anywhere but the runtime's own workers. */
export function isLocated(check: Pick<Located, 'locations'>): boolean {
  return !(check.locations.length === 1 && check.locations[0] === DEFAULT_LOCATION);
}

/** The default quorum: 1 for one location, a majority (floor(n/2)+1) for several. */
export function defaultQuorum(locationCount: number): number {
  return locationCount <= 1 ? 1 : Math.floor(locationCount / 2) + 1;
}

/** "Down when 2 of 3 locations fail; …", or where a single location probes from. */
export function quorumWords(check: Located): string {
  const n = check.locations.length;
  if (n === 1) return `Probed from ${check.locations[0]}.`;
  return `Down when ${Math.min(check.quorum, n)} of ${n} locations fail; a location that does not report in time is unknown, never a failure.`;
}

/** How an outcome reads: "up", "degraded", "down", "no report". */
export function outcomeWords(outcome: LocationOutcome['outcome']): string {
  return outcome === 'unknown' ? 'no report' : outcome;
}
