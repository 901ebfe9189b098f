import * as z from 'zod';
import { checkNameOf } from '../../check-types/check-name.ts';
import type { CheckRecord } from '../../check-types/check-record.ts';
import { slugSchema } from '../../domain/formats.ts';
import { CHECK_TYPES } from '../records.ts';

/**
 * The filters of GET /v1/checks, applied on the server to each check as the API shows it (its
 * cell's state overlaid, its entity's name known), so a page holds only matching checks.
 */

/** The states a check can be in (lib/check-types/check-record.ts), as the `state` filter names them. */
const CHECK_STATES = ['up', 'down', 'degraded', 'unknown'] as const;
/** The longest `q` text. */
const CHECK_QUERY_MAX = 200;

export const checkFilterQuery = {
  blueprint: slugSchema()
    .optional()
    .meta({ description: "Only the checks of this blueprint's entities (its slug)" }),
  type: z
    .enum(CHECK_TYPES)
    .optional()
    .meta({ description: `Only checks of this type: ${CHECK_TYPES.join(', ')}` }),
  state: z
    .enum(CHECK_STATES)
    .optional()
    .meta({ description: `Only checks in this state: ${CHECK_STATES.join(', ')}` }),
  q: z
    .string()
    .trim()
    .min(1, 'Enter text to search for, or leave this out.')
    .max(CHECK_QUERY_MAX)
    .optional()
    .meta({ description: "Only checks whose name or entity's name contains this text (any case)" }),
};

/** The filters besides `entity_id` (which chooses what is read, not what is kept). */
export interface CheckFilter {
  blueprint?: string | undefined;
  type?: (typeof CHECK_TYPES)[number] | undefined;
  state?: (typeof CHECK_STATES)[number] | undefined;
  q?: string | undefined;
}

/** A check as listed: its record and its entity's name. */
export type NamedCheck = CheckRecord & { entity_name: string };

/** Whether any filter is set (an unfiltered list reads only what its page needs). */
export function filtering(filter: CheckFilter): boolean {
  return Boolean(filter.blueprint || filter.type || filter.state || filter.q);
}

/** The predicate of `filter` on a listed check. */
export function checkMatcher(filter: CheckFilter): (check: NamedCheck) => boolean {
  const text = filter.q?.toLowerCase();
  return (check) =>
    (filter.blueprint === undefined || check.blueprint_slug === filter.blueprint) &&
    (filter.type === undefined || check.check_type === filter.type) &&
    (filter.state === undefined || check.state === filter.state) &&
    (text === undefined ||
      checkNameOf(check).toLowerCase().includes(text) ||
      check.entity_name.toLowerCase().includes(text));
}

/** The query string of the filters (for the Link header's next page). */
export function filterParams(filter: CheckFilter, params: URLSearchParams): void {
  for (const key of ['blueprint', 'type', 'state', 'q'] as const) {
    const value = filter[key];
    if (value !== undefined) params.set(key, value);
  }
}
