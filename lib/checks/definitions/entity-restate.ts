import {
  type EntityChecksChange,
  type EntityState,
  parseEntityState,
  readEntityItem,
} from '../../catalog/entities.ts';
import type { State } from '../../domain/states.ts';
import { aggregateEntityState, causingCheck, type StateRule } from '../../domain/states.ts';
import { OPTIMISTIC_ATTEMPTS, RETRY, withRetries } from '../../store/retry.ts';
import { ConditionFailedError, type Table, type WriteOp } from '../../store/table.ts';
import type { TransitionRecord } from '../items/transition-items.ts';
import { entityStateOps } from './entity-state-ops.ts';

/**
 * A change of an entity's state rule (its own, or its blueprint's for the entities that inherit it)
 * re-aggregates its state from the check states it carries, in the transaction that applies the
 * rule: a transition (reason `state rule changed`) when the state moves (DECISIONS.md "Alert model
 * (wave 4)"). The migration of issue 35 re-aggregates every entity the same way.
 */

const RULE_CHANGED = 'state rule changed';

/** The check a rule change's transition names: one in the new state (the smallest id), else the smallest. */
function namedCheck(entity: EntityState, state: State): string {
  const states = entity.check_states ?? {};
  return causingCheck(states, state, Object.keys(states).sort().slice(0, 1));
}

/** The ops that apply `rule` to the entity as read (held on its version), with its own attributes' `patch`. */
export function ruleChangeOps(input: {
  tenantId: string;
  entity: EntityState;
  rule: StateRule;
  nowMs: number;
  retentionDays: number;
  patch?: EntityChecksChange['patch'];
}): { ops: WriteOp[]; transition: TransitionRecord | undefined } {
  const { entity } = input;
  const checkStates = entity.check_states ?? {};
  const next = aggregateEntityState(
    Object.values(checkStates).map((state) => ({ enabled: true, state })),
    input.rule,
  );
  return entityStateOps({
    tenantId: input.tenantId,
    entity,
    checkStates,
    checkId: namedCheck(entity, next),
    reason: RULE_CHANGED,
    nowMs: input.nowMs,
    retentionDays: input.retentionDays,
    rule: input.rule,
    ...(input.patch ? { patch: input.patch } : {}),
  });
}

/**
 * Applies the rule `ruleOf` answers for an entity (stored at `bpSlug`/`slug`) and re-aggregates it,
 * retried on its version. Answers 'moved' (the state changed), 'applied' (only the rule), or
 * 'unchanged' (nothing to write, or the entity is gone).
 */
export async function applyStateRule(
  deps: { table: Table },
  input: {
    tenantId: string;
    bpSlug: string;
    slug: string;
    ruleOf: (entity: EntityState) => StateRule;
    nowMs: number;
    retentionDays: number;
  },
): Promise<'moved' | 'applied' | 'unchanged'> {
  return withRetries(OPTIMISTIC_ATTEMPTS, 'the entity', async () => {
    const item = await readEntityItem(deps.table, input.tenantId, input.bpSlug, input.slug);
    if (!item) return 'unchanged';
    const entity = parseEntityState(item);
    const rule = input.ruleOf(entity);
    const { ops, transition } = ruleChangeOps({ ...input, entity, rule });
    const ruleStored = entity.applied_state_rule === rule;
    if (!transition && ruleStored) return 'unchanged';
    try {
      await deps.table.transact(ops);
    } catch (err) {
      if (err instanceof ConditionFailedError) return RETRY;
      throw err;
    }
    return transition ? 'moved' : 'applied';
  });
}
