import type { TenantStore } from '../../auth/tenants.ts';
import { type EntityState, readEntityState } from '../../catalog/entity-items.ts';
import type { EntityStore } from '../../catalog/entity-store.ts';
import type { CheckState } from '../../domain/states.ts';
import type { Clock } from '../../platform/clock.ts';
import { NotFoundError } from '../../platform/errors.ts';
import type { Condition, Table, WriteOp } from '../../store/table.ts';
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

/**
 * The entity side of check writes: its state item (with the states of its enabled checks) and
 * the ops that move its aggregate in the same transaction as the check write.
 */
export function createCheckAggregate(deps: CheckAggregateDeps) {
  const { table } = deps;
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

    /** The entity ops for a change of one check's membership in the entity's aggregate. */
    async membershipOps(tenantId: string, entity: EntityState, change: MembershipChange): Promise<WriteOp[]> {
      const states: Record<string, CheckState> = { ...(entity.check_states ?? {}) };
      if (change.state) states[change.checkId] = change.state;
      else delete states[change.checkId];
      const tenant = await deps.tenants.requireTenant(tenantId);
      const entityChange = await withCause(table, {
        tenantId,
        entity,
        checkStates: states,
        checkId: change.checkId,
        reason: change.reason,
        nowMs: change.nowMs ?? deps.clock.now(),
        retentionDays: tenant.retention_days,
        ...(change.countDelta ? { countDelta: change.countDelta } : {}),
        ...(change.condition ? { condition: change.condition } : {}),
      });
      return entityStateOps(entityChange).ops;
    },
  };
}
