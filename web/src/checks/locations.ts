import type { Schemas } from '../api/client';

/**
 * A check's probe locations (docs/locations.md, DECISIONS.md "Probe locations (wave 4)"): where it
 * is probed from and the quorum of failures that fails a slot. The rules the form and the check
 * page need are the API's (lib/domain/quorum.ts), repeated here: the console builds apart from lib.
 */

/** One location's part in a decided slot (a result's `locations[]`, a check's `last_locations`). */
export type LocationOutcome = NonNullable<Schemas['Result']['locations']>[number];

/**
 * A check's location fields as GET /v1/checks/{id} shows them: `locations` (["default"] unless it
 * names others), the effective `quorum`, and a located check's `last_locations`. Typed here as
 * well as in the generated API types, which carry them once the check fields are in the API.
 */
export interface LocationFields {
  locations?: string[];
  quorum?: number | null;
  last_locations?: LocationOutcome[];
}

/** A check's location fields, read from its answer as far as they are there and well formed. */
export function locationFieldsOf(check: object): LocationFields {
  const c: { locations?: unknown; quorum?: unknown; last_locations?: unknown } = check;
  const out: LocationFields = {};
  if (Array.isArray(c.locations) && c.locations.every((l) => typeof l === 'string')) {
    out.locations = c.locations;
  }
  if (typeof c.quorum === 'number') out.quorum = c.quorum;
  if (Array.isArray(c.last_locations)) out.last_locations = c.last_locations.filter(isOutcome);
  return out;
}

function isOutcome(v: unknown): v is LocationOutcome {
  return typeof v === 'object' && v !== null && 'location' in v && 'outcome' in v;
}

/** The runtime's own workers: every check's location unless it names others. */
export const DEFAULT_LOCATION = 'default';

/** A check's locations (absent: the runtime's own workers). */
export function locationsOf(check: LocationFields): string[] {
  return check.locations && check.locations.length > 0 ? check.locations : [DEFAULT_LOCATION];
}

/** Whether a check is probed anywhere but the runtime's own workers. */
export function isLocated(check: LocationFields): boolean {
  const locations = locationsOf(check);
  return !(locations.length === 1 && locations[0] === DEFAULT_LOCATION);
}

/** The default quorum: 1 for one location, a majority (floor(n/2)+1) for several. */
export function defaultQuorum(locationCount: number): number {
  return locationCount <= 1 ? 1 : Math.floor(locationCount / 2) + 1;
}

/** "Down when 2 of 3 locations fail." */
export function quorumWords(check: LocationFields): string {
  const n = locationsOf(check).length;
  const quorum = Math.min(check.quorum ?? defaultQuorum(n), n);
  if (n === 1) return `Probed from ${locationsOf(check)[0]}.`;
  return `Down when ${quorum} of ${n} locations fail; a location that does not report in time is unknown, never a failure.`;
}

/** How an outcome reads: "up", "degraded", "down", "no report". */
export function outcomeWords(outcome: LocationOutcome['outcome']): string {
  return outcome === 'unknown' ? 'no report' : outcome;
}
