import {
  type EntityChecksChange,
  type EntityState,
  entityChecksOp,
  stateMoveOps,
} from '../../catalog/entities.ts';
import { checkNameOf } from '../../check-types/check-name.ts';
import type { CheckState, MemberTransition, State } from '../../domain/states.ts';
import {
  aggregateEntityState,
  causingCheck,
  DEFAULT_STATE_RULE,
  type StateRule,
} from '../../domain/states.ts';
import { isoTime } from '../../platform/clock.ts';
import { newId } from '../../platform/ids.ts';
import type { Condition, Table, WriteOp } from '../../store/table.ts';
import { getCheckDefinition } from '../check-items.ts';
import {
  latestCheckTransition,
  type TransitionRecord,
  transitionRecordedOp,
} from '../items/transition-items.ts';

/**
 * The entity item keeps the state of each of its enabled checks (`check_states`), so its aggregate
 * state is computed from one item inside the same transaction as the change that moved it. The
 * entity item and the status index are the catalog's (lib/catalog/entities/entity-items.ts,
 * entity-state-index-items.ts); this composes their writes with the transition.
 *
 * The transition names the check that caused it (DECISIONS.md "Alert truth (wave 5)", Cause): one
 * in the entity's new state, the moving check when it is (`causingCheck`), with that check's reason.
 * A change can name another check than the one whose result was being recorded (an up check's
 * first result beside a degraded one, a recovery beside a still degraded check): `withCause` reads
 * that check's own reason before the ops are built.
 */

export interface EntityChange {
  tenantId: string;
  entity: EntityState;
  /** The enabled checks' states after the change. */
  checkStates: Record<string, CheckState>;
  /** The check whose result or write moved the entity. */
  checkId: string;
  /** That check's reason. */
  reason: string;
  /**
   * The reasons of other checks the transition may name: those moved by the same write (a cell's
   * slot; preferred in this order after `checkId`) and the one `withCause` read.
   */
  otherReasons?: Readonly<Record<string, string>>;
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
const appliedRule = (entity: EntityState): StateRule => entity.applied_state_rule ?? DEFAULT_STATE_RULE;

/** The entity's state after the change, and the check a transition to it names. */
function entityMove(change: EntityChange): { next: State; cause: string } {
  const next: State = aggregateEntityState(
    Object.values(change.checkStates).map((state) => ({ enabled: true, state })),
    change.rule ?? appliedRule(change.entity),
  );
  const movers = [change.checkId, ...Object.keys(change.otherReasons ?? {})];
  return { next, cause: causingCheck(change.checkStates, next, movers) };
}

/**
 * Why a check is in `state`, for a transition naming it that another check's result or write
 * moved: the check's own newest transition's reason (the one that put it there), else
 * "<check name> is <state>".
 */
async function reasonOfCheck(table: Table, tenantId: string, checkId: string, state: State): Promise<string> {
  const last = await latestCheckTransition(table, checkId);
  if (last?.to_state === state) return last.reason;
  const check = await getCheckDefinition(table, tenantId, checkId);
  return `${check ? checkNameOf(check) : checkId} is ${state}`;
}

/** `change` with the reason of the check its transition will name, read only when the change does not carry it. */
export async function withCause(table: Table, change: EntityChange): Promise<EntityChange> {
  const { next, cause } = entityMove(change);
  if (
    next === change.entity.state ||
    cause === change.checkId ||
    change.otherReasons?.[cause] !== undefined
  ) {
    return change;
  }
  const reason = await reasonOfCheck(table, change.tenantId, cause, next);
  return { ...change, otherReasons: { ...change.otherReasons, [cause]: reason } };
}

/** What a transition of the entity or of one of its checks names the entity by. */
const entityNames = (entity: EntityState) => ({
  entity_id: entity.id,
  entity_name: entity.name,
  blueprint_slug: entity.blueprint_slug,
  entity_slug: entity.slug,
});

/** The entity update (version-checked) and, when the aggregate moved, the entity transition record. */
export function entityStateOps(change: EntityChange): {
  ops: WriteOp[];
  transition: TransitionRecord | undefined;
} {
  const { entity } = change;
  const { next, cause } = entityMove(change);
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
    ...entityNames(entity),
    check_id: cause,
    from_state: entity.state,
    to_state: next,
    // A change withCause did not prepare (none does: a state rule's change names its own check).
    reason:
      cause === change.checkId
        ? change.reason
        : (change.otherReasons?.[cause] ?? `check ${cause} is ${next}`),
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

/**
 * The writes of checks of one entity that moved together (a result, or a cell's slot): each
 * check's transition (with the id `transitionId` gives it), then the entity's update and, when its
 * aggregate moved, its transition, named after the last move (the earlier ones' reasons kept for
 * the cause it names).
 */
export async function checkMovesOps(
  table: Table,
  moved: {
    tenantId: string;
    entity: EntityState;
    moves: readonly MemberTransition[];
    transitionId: (move: MemberTransition) => string;
    nowMs: number;
    retentionDays: number;
  },
): Promise<{ ops: WriteOp[]; transitions: TransitionRecord[] }> {
  const { tenantId, entity, moves, nowMs, retentionDays } = moved;
  const last = moves.at(-1);
  if (!last) return { ops: [], transitions: [] };
  const checkStates = { ...(entity.check_states ?? {}) };
  const transitions: TransitionRecord[] = moves.map((move) => {
    checkStates[move.check_id] = move.to;
    return {
      id: moved.transitionId(move),
      tenant_id: tenantId,
      kind: 'check',
      ...entityNames(entity),
      check_id: move.check_id,
      from_state: move.from,
      to_state: move.to,
      reason: move.reason,
      created_at: isoTime(nowMs),
    };
  });
  const earlier = moves.slice(0, -1).reverse();
  const entityOps = entityStateOps(
    await withCause(table, {
      tenantId,
      entity,
      checkStates,
      checkId: last.check_id,
      reason: last.reason,
      otherReasons: Object.fromEntries(earlier.map((move) => [move.check_id, move.reason])),
      nowMs,
      retentionDays,
    }),
  );
  const ops = [...transitions.map((t) => transitionRecordedOp(t, retentionDays)), ...entityOps.ops];
  if (entityOps.transition) transitions.push(entityOps.transition);
  return { ops, transitions };
}
