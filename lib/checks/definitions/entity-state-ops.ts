import { type EntityChecksChange, type EntityState, entityChecksOp } from '../../catalog/entity-items.ts';
import { stateMoveOps } from '../../catalog/entity-state-index-items.ts';
import type { CheckState, State } from '../../domain/check-state.ts';
import { aggregateEntityState, DEFAULT_STATE_RULE, type StateRule } from '../../domain/entity-state.ts';
import { isoTime } from '../../platform/clock.ts';
import { newId } from '../../platform/ids.ts';
import type { Condition, WriteOp } from '../../store/table.ts';
import { type TransitionRecord, transitionRecordedOp } from '../results/transition-items.ts';

/**
 * The entity item keeps the state of each of its enabled checks (`check_states`), so its aggregate
 * state is computed from one item inside the same transaction as the change that moved it. The
 * entity item and the status index are the catalog's (lib/catalog/entity-items.ts,
 * entity-state-index-items.ts); this composes their writes with the transition.
 */

export interface EntityChange {
  tenantId: string;
  entity: EntityState;
  /** The enabled checks' states after the change. */
  checkStates: Record<string, CheckState>;
  /** The check that caused the change (carried by the transition and the state-change event). */
  checkId: string;
  reason: string;
  nowMs: number;
  retentionDays: number;
  /** Counter change for check create (+1) and delete (-1). */
  countDelta?: number;
  /** Extra condition on the entity op (e.g. a plan limit). */
  condition?: Condition;
  /** A new state rule to apply (a rule change); without it, the entity's applied rule. */
  rule?: StateRule;
  /** The entity's own attributes written with a rule change (an entity PUT). */
  patch?: EntityChecksChange['patch'];
}

/** The rule an entity's state is aggregated by (items written before issue 35 have none: the default). */
export const appliedRule = (entity: EntityState): StateRule =>
  entity.applied_state_rule ?? DEFAULT_STATE_RULE;

/** The entity update (version-checked) and, when the aggregate moved, the entity transition record. */
export function entityStateOps(change: EntityChange): {
  ops: WriteOp[];
  transition: TransitionRecord | undefined;
} {
  const { entity } = change;
  const next: State = aggregateEntityState(
    Object.values(change.checkStates).map((state) => ({ enabled: true, state })),
    change.rule ?? appliedRule(entity),
  );
  const entityOp = (lastTransitionId?: string) =>
    entityChecksOp(change.tenantId, entity, {
      state: next,
      checkStates: change.checkStates,
      lastTransitionId,
      countDelta: change.countDelta,
      condition: change.condition,
      rule: change.rule,
      patch: change.patch,
    });
  if (next === entity.state) return { ops: [entityOp()], transition: undefined };
  const transition: TransitionRecord = {
    id: newId('trn', change.nowMs),
    tenant_id: change.tenantId,
    kind: 'entity',
    entity_id: entity.id,
    entity_name: entity.name,
    blueprint_slug: entity.blueprint_slug,
    entity_slug: entity.slug,
    check_id: change.checkId,
    from_state: entity.state,
    to_state: next,
    reason: change.reason,
    created_at: isoTime(change.nowMs),
  };
  const ops: WriteOp[] = [
    entityOp(transition.id),
    transitionRecordedOp(transition, change.retentionDays),
    // The tenant's status counters and state index move with the entity.
    ...stateMoveOps(change.tenantId, entity, entity.state, next),
  ];
  return { ops, transition };
}
