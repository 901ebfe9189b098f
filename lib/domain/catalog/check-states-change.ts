import type { EntityState } from './entity-record.ts';

type CheckStates = NonNullable<EntityState['check_states']>;

/** A check state that counts in the aggregate: `unknown` (and absent, a disabled check) counts for nothing. */
const known = (state: string | undefined): boolean => state !== undefined && state !== 'unknown';

/**
 * What a check write changes in an entity's `check_states` (issue 75, point 7): the entries it
 * sets and removes (the others are left to their writers), and whether a changed entry is or was
 * known. Only such a change can move the aggregate; entries of unknown checks (a check created, or
 * deleted or disabled before its first result) move nothing, whatever other entries hold.
 */
export function checkStatesChange(
  before: CheckStates | undefined,
  after: CheckStates,
): { set: CheckStates; remove: string[]; movesAggregate: boolean } {
  const ids = new Set([...Object.keys(before ?? {}), ...Object.keys(after)]);
  const changed = [...ids].filter((id) => before?.[id] !== after[id]);
  return {
    set: Object.fromEntries(changed.flatMap((id) => (after[id] === undefined ? [] : [[id, after[id]]]))),
    remove: changed.filter((id) => after[id] === undefined),
    movesAggregate: changed.some((id) => known(before?.[id]) || known(after[id])),
  };
}
