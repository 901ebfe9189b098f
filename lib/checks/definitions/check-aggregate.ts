import type { TenantStore } from '../../auth/tenants.ts';
import type { EntityStore } from '../../catalog/entities.ts';
import { type EntityState, entityChecksOp, readEntityState } from '../../catalog/entities.ts';
import type { CheckState } from '../../domain/states.ts';
import type { Clock } from '../../platform/clock.ts';
import { NotFoundError } from '../../platform/errors.ts';
import { type Condition, ConditionFailedError, type Table, type WriteOp } from '../../store/table.ts';
import { entityStateOps, withCause } from './entity-state-ops.ts';

export interface CheckAggregateDeps {
  table: Table;
  entities: EntityStore;
  tenants: TenantStore;
  clock: Clock;
}

/** How one check's place in its entity's aggregate changes (state undefined: it leaves it). */
export interface MembershipChange {
  checkId: string;
  state: CheckState | undefined;
  reason: string;
  countDelta?: number;
  /** A condition on the entity item (e.g. the plan's check limit). */
  condition?: Condition;
  nowMs?: number;
}

/** Tries of a check's membership change held on its entity's version before it yields (below). */
const HELD_TRIES = 2;

/** The entity's check states after the change. */
function statesAfter(entity: EntityState, change: MembershipChange): Record<string, CheckState> {
  const states: Record<string, CheckState> = { ...(entity.check_states ?? {}) };
  if (change.state) states[change.checkId] = change.state;
  else delete states[change.checkId];
  return states;
}

/**
 * The entity side of check writes: its state item (with the states of its enabled checks) and
 * the ops that move its aggregate in the same transaction as the check write.
 */
export function createCheckAggregate(deps: CheckAggregateDeps) {
  const { table } = deps;

  /** The entity ops for a change of one check's membership in the entity's aggregate (held on its version). */
  const membershipOps = async (
    tenantId: string,
    entity: EntityState,
    change: MembershipChange,
  ): Promise<WriteOp[]> => {
    const tenant = await deps.tenants.requireTenant(tenantId);
    const entityChange = await withCause(table, {
      tenantId,
      entity,
      checkStates: statesAfter(entity, change),
      checkId: change.checkId,
      reason: change.reason,
      nowMs: change.nowMs ?? deps.clock.now(),
      retentionDays: tenant.retention_days,
      ...(change.countDelta ? { countDelta: change.countDelta } : {}),
      ...(change.condition ? { condition: change.condition } : {}),
    });
    return entityStateOps(entityChange).ops;
  };

  /**
   * After a yielded change: the entity's aggregate of the entries as they are now, with its
   * transition, held on the version read; lost to another write, that write read the entries
   * after the change (the yielded write bumped the version) and made the aggregate of them.
   */
  const settle = async (tenantId: string, at: EntityState, change: MembershipChange): Promise<void> => {
    const entity = await readEntityState(table, tenantId, at.blueprint_slug, at.slug);
    if (!entity) return;
    const { checkId, state, reason } = change;
    const ops = await membershipOps(tenantId, entity, { checkId, state, reason });
    if (ops.every((op) => op.type === 'conditionCheck')) return;
    try {
      await table.transact(ops);
    } catch (err) {
      if (!(err instanceof ConditionFailedError)) throw err;
    }
  };

  return {
    /** The entity's state item, or 404 when the entity is gone. */
    async requireEntity(tenantId: string, entityId: string): Promise<EntityState> {
      const entity = await deps.entities.getById(tenantId, entityId);
      if (!entity) throw new NotFoundError('entity');
      const state = await readEntityState(table, tenantId, entity.blueprint_slug, entity.slug);
      if (!state) throw new NotFoundError('entity');
      return state;
    },

    /** The state item of the check's entity, or undefined while the entity is being deleted. */
    entityOf(
      tenantId: string,
      check: { blueprint_slug: string; entity_slug: string },
    ): Promise<EntityState | undefined> {
      return readEntityState(table, tenantId, check.blueprint_slug, check.entity_slug);
    },

    membershipOps,

    /**
     * The entity side of a check enabled, disabled or deleted, on try `attempt` (0 first) of its
     * write: held on the entity's version, with its transition, for the first tries. A user's write
     * must not lose to Vigil's own state moves (issue 75), which bump that version with every
     * result that moves the entity: later tries yield the aggregate to them, writing the check's
     * entry and the count alone (held on the entity's existence and `condition`), and `settle`,
     * once they committed, re-aggregates the entity unless a state write did meanwhile.
     */
    async membership(
      tenantId: string,
      entity: EntityState,
      change: MembershipChange,
      attempt: number,
    ): Promise<{ ops: WriteOp[]; settle: () => Promise<void> }> {
      if (attempt < HELD_TRIES)
        return { ops: await membershipOps(tenantId, entity, change), settle: async () => {} };
      const op = entityChecksOp(tenantId, entity, {
        state: entity.state,
        checkStates: statesAfter(entity, change),
        countDelta: change.countDelta,
        condition: change.condition,
        yieldAggregate: true,
      });
      return { ops: [op], settle: () => settle(tenantId, entity, change) };
    },
  };
}
