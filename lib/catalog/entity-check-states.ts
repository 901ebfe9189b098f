import type { EntityRecord, EntityState } from '../domain/catalog.ts';
import { unchanged } from '../store/conditions.ts';
import type { Condition, MapEntries, WriteOp } from '../store/table.ts';
import { entities } from './entity-items.ts';

/**
 * The checks engine's attributes of an entity item (domain/catalog/entity-record.ts): its state,
 * the states of its enabled checks it is aggregated from, and its check count, written in the
 * checks' transactions.
 */

type CheckStates = NonNullable<EntityState['check_states']>;

/** A state a check's place in the aggregate depends on: `unknown` (and absent, a disabled check) counts for nothing. */
const known = (state: string | undefined): boolean => state !== undefined && state !== 'unknown';

/** How a check write changes an entity item's `check_states` (issue 75, point 7). */
interface CheckStatesWrite {
  /** The whole map, when the entity had none yet (held on its absence: another writer's map wins). */
  set?: { check_states: CheckStates };
  /** Else only the entries this write changes: a concurrent writer's other entries stay. */
  entries?: { check_states: MapEntries };
  condition: Condition;
  /**
   * Whether a changed entry is or was known: only then can the aggregate move, and the write must
   * hold on the entity's version. Entries of unknown checks (a check created, or deleted or
   * disabled before its first result) move nothing: such a write holds on nothing a state move
   * writes, so a state move landing meanwhile cannot make it fail.
   */
  movesAggregate: boolean;
}

/** The write that takes an entity's `check_states` from `before` (as read) to `after`. */
function checkStatesWrite(before: CheckStates | undefined, after: CheckStates): CheckStatesWrite {
  const changed = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after)])].filter(
    (id) => before?.[id] !== after[id],
  );
  const movesAggregate = changed.some((id) => known(before?.[id]) || known(after[id]));
  if (before === undefined) {
    return {
      set: { check_states: after },
      condition: { kind: 'attrNotExists', attr: 'check_states' },
      movesAggregate,
    };
  }
  const set = Object.fromEntries(changed.flatMap((id) => (id in after ? [[id, after[id]]] : [])));
  const remove = changed.filter((id) => !(id in after));
  return {
    ...(changed.length > 0 ? { entries: { check_states: { set, remove } } } : {}),
    condition: { kind: 'attrExists', attr: 'check_states' },
    movesAggregate,
  };
}

/** What a check write changes on its entity item. */
export interface EntityChecksChange {
  state: EntityState['state'];
  /** The enabled checks' states after the change (the write changes only the entries that differ). */
  checkStates: CheckStates;
  /** The entity transition that moved `state`, when it moved. */
  lastTransitionId?: string | undefined;
  /** check_count change: check create (+1) and delete (-1). */
  countDelta?: number | undefined;
  /** Another condition on the entity item (e.g. a plan limit). */
  condition?: Condition | undefined;
  /** A new applied state rule, and the entity's own attributes a rule change writes with it (a PUT). */
  rule?: NonNullable<EntityState['applied_state_rule']> | undefined;
  patch?: Partial<Pick<EntityRecord, 'name' | 'fields' | 'updated_at' | 'state_rule'>> | undefined;
}

/**
 * The entity update of a check write. One that can move the aggregate (a known check's state, the
 * rule, the state) sets the state and the changed entries, held on the version read. One that
 * changes only unknown checks' entries (a create) writes those entries and the count, held on the
 * entity's existence and `condition` only: Vigil's own state moves landing meanwhile cannot make it
 * fail, and it leaves the version alone, so they do not fail for it either.
 */
export function entityChecksOp(tenantId: string, entity: EntityState, change: EntityChecksChange): WriteOp {
  const states = checkStatesWrite(entity.check_states, change.checkStates);
  const key = { tenant_id: tenantId, blueprint_slug: entity.blueprint_slug, slug: entity.slug };
  const count = change.countDelta ? { check_count: change.countDelta } : {};
  const { set, entries } = states;
  const held: Condition[] = [
    { kind: 'itemExists' },
    ...(change.condition ? [change.condition] : []),
    states.condition,
  ];
  const aggregate =
    states.movesAggregate ||
    change.state !== entity.state ||
    change.lastTransitionId !== undefined ||
    change.rule !== undefined ||
    change.patch !== undefined;
  if (!aggregate) {
    const condition: Condition = { kind: 'and', conditions: held };
    if (!set && !entries && !change.countDelta) return entities.conditionCheck(key, condition);
    return entities.update(key, {
      ...(set ? { set } : {}),
      ...(entries ? { entries } : {}),
      add: count,
      condition,
    });
  }
  return entities.update(key, {
    set: {
      ...change.patch,
      state: change.state,
      ...set,
      ...(change.lastTransitionId !== undefined ? { last_transition_id: change.lastTransitionId } : {}),
      ...(change.rule !== undefined ? { applied_state_rule: change.rule } : {}),
    },
    ...(entries ? { entries } : {}),
    add: { version: 1, ...count },
    condition: { kind: 'and', conditions: [unchanged('version', entity.version), ...held] },
  });
}
