import * as z from 'zod';
import { DEFAULT_LOCATION, MAX_CHECK_LOCATIONS, probesFromLocations } from '../../domain/states.ts';
import { ValidationError } from '../../platform/errors.ts';
import { countOf } from '../../platform/plural.ts';

/**
 * Where a check probes from (issue 40, DECISIONS.md "Probe locations (wave 4)"): `locations`
 * names the tenant's locations (`default`: the runtime's own workers) and `quorum` how many must
 * report failure for a slot to fail. The body schemas state what a schema can; the rules here
 * need the merged definition (push checks, quorum against the count) or the tenant's stored
 * locations (names that exist).
 */

/** A location's name as lib/locations/responses.ts `locationNameSchema` has it, or `default`. */
export const locationName = z
  .string()
  .regex(/^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/, 'Enter a location name (GET /v1/locations lists them).')
  .meta({ description: 'A location name: `default` (the runtime itself) or one of GET /v1/locations' });

/** `locations` of a create or update body: 1 to MAX_CHECK_LOCATIONS names, each once. */
export const checkLocationsInput = z
  .array(locationName)
  .min(1)
  .max(MAX_CHECK_LOCATIONS)
  .refine((names) => new Set(names).size === names.length, { message: 'Name each location once.' })
  .meta({
    uniqueItems: true,
    description: `Where the check probes from, 1 to ${MAX_CHECK_LOCATIONS} location names (default ["default"]: the runtime's own workers). Push checks are not probed: only ["default"]`,
  });

/** `locations` of a push check's create body: push checks are not probed, so only the runtime's. */
export const pushLocationsInput = z
  .array(
    z.literal(DEFAULT_LOCATION, { error: 'Push checks are not probed: their locations are ["default"].' }),
  )
  .length(1)
  .meta({ description: 'Push checks are not probed: only ["default"]' });

/** `quorum`: how many locations must report failure for a slot to fail; null: the default. */
export const checkQuorumInput = z.number().int().min(1).max(MAX_CHECK_LOCATIONS).nullable().meta({
  description:
    'How many locations must report failure for a slot to count as a failure, 1 to the number of locations; null (the default): 1 with one location, a majority (floor(n/2)+1) with several',
});

/** What a definition says of its locations once a body is merged with the stored check. */
export interface LocatedFields {
  locations: string[];
  quorum: number | null;
}

/** The rules over the merged definition: push checks only at `default`; a quorum of at most n. */
export function checkedLocations<T extends LocatedFields & { check_type: string }>(def: T): T {
  if (def.check_type === 'push' && probesFromLocations(def)) {
    throw ValidationError.field('locations', 'Push checks are not probed: their locations are ["default"].');
  }
  const n = def.locations.length;
  if (def.quorum !== null && def.quorum > n) {
    throw ValidationError.field(
      'quorum',
      `Enter ${n === 1 ? '1' : `1 to ${n}`}: the check probes from ${countOf(n, 'location')}, and a quorum counts locations that report failure.`,
    );
  }
  return def;
}

/**
 * Refuses a body that names a location the tenant does not have (400 naming it); `names` reads
 * the tenant's location names only when the body names any besides `default`.
 */
export async function requireKnownLocations(
  sent: readonly string[] | undefined,
  names: () => Promise<ReadonlySet<string>>,
): Promise<void> {
  if (!sent?.some((name) => name !== DEFAULT_LOCATION)) return;
  const known = await names();
  const index = sent.findIndex((name) => name !== DEFAULT_LOCATION && !known.has(name));
  if (index < 0) return;
  throw ValidationError.field(
    `locations.${index}`,
    `No location is named ${sent[index]}: create it first (POST /v1/locations), or name one GET /v1/locations lists.`,
  );
}
