import type { TenantStore } from '../auth/tenant-store.ts';
import { catalogKeys, checkPartition } from '../catalog/catalog-keys.ts';
import { belowLimit, unchanged } from '../catalog/conditions.ts';
import type { EntityStore } from '../catalog/entity-store.ts';
import { OPTIMISTIC_ATTEMPTS, RETRY, withRetries } from '../catalog/retry.ts';
import type { CheckState } from '../domain/check-state.ts';
import { firstSlot, shardOf } from '../domain/schedule.ts';
import type { Clock } from '../platform/clock.ts';
import { isoTime } from '../platform/clock.ts';
import { LimitExceededError, NotFoundError, ValidationError } from '../platform/errors.ts';
import { newId } from '../platform/ids.ts';
import { countOf } from '../platform/plural.ts';
import { ConditionFailedError, type Table, type WriteOp } from '../store/table.ts';
import {
  type CheckDefinition,
  type CreateCheckBody,
  definitionFromCreate,
  definitionFromUpdate,
  type UpdateCheckBody,
} from './check-input.ts';
import { checkKeys } from './check-keys.ts';
import { type CheckRun, type CheckStore, checkItems, dueIndexUpdate, joinCheck } from './check-store.ts';
import { type EntityState, entityStateOps, readEntityState } from './entity-state-ops.ts';
import type { CheckRecord } from './records.ts';

export interface CheckServiceDeps {
  table: Table;
  checks: CheckStore;
  entities: EntityStore;
  tenants: TenantStore;
  clock: Clock;
  dueShards: number;
}

/** When a check should next be found by the scheduler: pull checks on their phase, push checks at the grace deadline. */
export function scheduledRunAt(
  check: Pick<
    CheckRecord,
    'id' | 'enabled' | 'execution_mode' | 'interval_seconds' | 'config' | 'last_result_at' | 'next_run_at'
  >,
  nowMs: number,
  keepExisting: boolean,
): string | null {
  if (!check.enabled) return null;
  if (check.execution_mode === 'push') {
    if (!check.last_result_at) return null;
    return isoTime(Date.parse(check.last_result_at) + graceMs(check));
  }
  if (keepExisting && check.next_run_at) return check.next_run_at;
  return isoTime(firstSlot(check.id, check.interval_seconds, nowMs));
}

/** The push grace window: config.grace_seconds, default interval_seconds x 2. */
export function graceMs(check: Pick<CheckRecord, 'interval_seconds' | 'config'>): number {
  const grace = check.config.grace_seconds;
  return (typeof grace === 'number' ? grace : check.interval_seconds * 2) * 1000;
}

function enabledStates(entity: EntityState): Record<string, CheckState> {
  return { ...(entity.check_states ?? {}) };
}

/** Check CRUD: the plan limit, the entity's check states and the due index move in one transaction. */
export function createCheckService(deps: CheckServiceDeps) {
  const { table, clock } = deps;

  const requireEntity = async (tenantId: string, entityId: string) => {
    const entity = await deps.entities.getById(tenantId, entityId);
    if (!entity) throw new NotFoundError('entity');
    const state = await readEntityState(table, tenantId, entity.blueprint_slug, entity.slug);
    if (!state) throw new NotFoundError('entity');
    return state;
  };

  /** The check as a run needs it (its state, and its definition kept parsed), or 404. */
  const requireRun = async (tenantId: string, checkId: string): Promise<CheckRun> => {
    const run = await deps.checks.run(tenantId, checkId);
    // A check whose entity was deleted is gone at once, even while the purge is still running.
    // (The entity's id pointer is written and deleted with the entity: reading it is enough.)
    const entityId = run?.definition.entity_id;
    if (!run || !entityId || !(await deps.entities.existing(tenantId, [entityId])).has(entityId)) {
      throw new NotFoundError('check');
    }
    return run;
  };

  /** The check as the API shows it (its two items joined), or 404. */
  const requireCheck = async (tenantId: string, checkId: string): Promise<CheckRecord> => {
    const run = await requireRun(tenantId, checkId);
    return joinCheck(run.definition, run.state);
  };

  /** Commits `ops`; a lost optimistic condition asks the caller to read again and retry. */
  const commitOrRetry = async (ops: WriteOp[]): Promise<true | typeof RETRY> => {
    try {
      await table.transact(ops);
      return true;
    } catch (err) {
      if (err instanceof ConditionFailedError) return RETRY;
      throw err;
    }
  };

  /** The entity ops for a change of one check's membership in the entity's aggregate. */
  const membershipOps = async (
    tenantId: string,
    entity: EntityState,
    change: { checkId: string; state: CheckState | undefined; reason: string; countDelta?: number },
  ): Promise<WriteOp[]> => {
    const states = enabledStates(entity);
    if (change.state) states[change.checkId] = change.state;
    else delete states[change.checkId];
    const tenant = await deps.tenants.requireTenant(tenantId);
    return entityStateOps({
      tenantId,
      entity,
      checkStates: states,
      checkId: change.checkId,
      reason: change.reason,
      nowMs: clock.now(),
      retentionDays: tenant.retention_days,
      ...(change.countDelta ? { countDelta: change.countDelta } : {}),
    }).ops;
  };

  const createOnce = async (tenantId: string, body: CreateCheckBody, def: CheckDefinition, limit: number) => {
    const entity = await requireEntity(tenantId, body.entity_id);
    const now = clock.now();
    const at = isoTime(now);
    const id = newId('chk', now);
    const draft = { id, ...def, last_result_at: null, next_run_at: null };
    const check: CheckRecord = {
      ...draft,
      tenant_id: tenantId,
      entity_id: entity.id,
      blueprint_slug: entity.blueprint_slug,
      entity_slug: entity.slug,
      state: 'unknown',
      consecutive_failures: 0,
      next_run_at: scheduledRunAt(draft, now, false),
      created_at: at,
      updated_at: at,
      version: 1,
      state_version: 1,
    };
    const states = enabledStates(entity);
    if (check.enabled) states[id] = 'unknown';
    const tenant = await deps.tenants.requireTenant(tenantId);
    const entityOps = entityStateOps({
      tenantId,
      entity,
      checkStates: states,
      checkId: id,
      reason: 'check created',
      nowMs: now,
      retentionDays: tenant.retention_days,
      countDelta: 1,
      condition: belowLimit('check_count', limit),
    });
    try {
      const items = checkItems(check, shardOf(id, deps.dueShards));
      await table.transact([
        { type: 'put', item: items.definition, condition: { kind: 'itemNotExists' } },
        { type: 'put', item: items.state, condition: { kind: 'itemNotExists' } },
        ...entityOps.ops,
      ]);
      return check;
    } catch (err) {
      if (!(err instanceof ConditionFailedError)) throw err;
      const fresh = await requireEntity(tenantId, body.entity_id);
      if ((fresh.check_count ?? 0) >= limit) {
        throw new LimitExceededError(
          `this entity already has ${countOf(limit, 'check')} (check_limit_per_entity)`,
        );
      }
      return RETRY;
    }
  };

  const updateOnce = async (tenantId: string, checkId: string, patch: UpdateCheckBody) => {
    const current = await requireCheck(tenantId, checkId);
    const def = definitionFromUpdate(current, patch);
    const now = clock.now();
    const schedulingChanged =
      def.enabled !== current.enabled || def.execution_mode !== current.execution_mode;
    const merged = { ...current, ...def };
    const nextRunAt = scheduledRunAt(merged, now, !schedulingChanged);
    const updatedAt = isoTime(now);
    // Unless scheduling changed, next_run_at is left to the generator's claims (no stale overwrite).
    const due = schedulingChanged
      ? dueIndexUpdate(checkId, nextRunAt, shardOf(checkId, deps.dueShards))
      : { set: {}, remove: [] };
    const ops: WriteOp[] = [
      {
        type: 'update',
        key: checkKeys.check(tenantId, checkId),
        set: { ...def, updated_at: updatedAt },
        add: { version: 1 },
        condition: unchanged('version', current.version),
      },
      {
        // The state item's copies of the definition, its schedule when that changed, and a new
        // version: a result in flight, evaluated against the old definition, is refused and retried.
        type: 'update',
        key: checkKeys.state(tenantId, checkId),
        set: {
          execution_mode: def.execution_mode,
          interval_seconds: def.interval_seconds,
          definition_version: current.version + 1,
          ...due.set,
        },
        remove: due.remove,
        add: { version: 1 },
        condition: { kind: 'itemExists' },
      },
    ];
    if (def.enabled !== current.enabled) {
      const entity = await readEntityState(table, tenantId, current.blueprint_slug, current.entity_slug);
      if (!entity) throw new NotFoundError('check');
      ops.push(
        ...(await membershipOps(tenantId, entity, {
          checkId,
          state: def.enabled ? current.state : undefined,
          reason: def.enabled ? 'check enabled' : 'check disabled',
        })),
      );
    }
    if ((await commitOrRetry(ops)) === RETRY) return RETRY;
    return {
      ...merged,
      next_run_at: nextRunAt,
      updated_at: updatedAt,
      version: current.version + 1,
      state_version: current.state_version + 1,
    };
  };

  const removeOnce = async (tenantId: string, checkId: string) => {
    const check = await requireCheck(tenantId, checkId);
    const ops: WriteOp[] = [
      {
        type: 'delete',
        key: checkKeys.check(tenantId, checkId),
        condition: unchanged('version', check.version),
      },
      { type: 'delete', key: checkKeys.state(tenantId, checkId) },
      {
        type: 'put',
        item: {
          ...catalogKeys.partitionPurgeJob(tenantId, checkPartition(checkId)),
          entity: 'purge_job',
          tenant_id: tenantId,
          kind: 'partition',
          partition: checkPartition(checkId),
          round: 0,
        },
      },
    ];
    const entity = await readEntityState(table, tenantId, check.blueprint_slug, check.entity_slug);
    if (entity) {
      ops.push(
        ...(await membershipOps(tenantId, entity, {
          checkId,
          state: undefined,
          reason: 'check deleted',
          countDelta: -1,
        })),
      );
    }
    return commitOrRetry(ops);
  };

  return {
    requireCheck,
    requireRun,

    async create(tenantId: string, body: CreateCheckBody): Promise<CheckRecord> {
      const def = definitionFromCreate(body);
      const tenant = await deps.tenants.requireTenant(tenantId);
      const limit = tenant.check_limit_per_entity;
      if (limit <= 0)
        throw new LimitExceededError('your plan allows no checks (check_limit_per_entity is 0)');
      return withRetries(OPTIMISTIC_ATTEMPTS, 'the entity', () => createOnce(tenantId, body, def, limit));
    },

    async list(tenantId: string, filter: { entity_id?: string | undefined }): Promise<CheckRecord[]> {
      const all = await deps.checks.list(tenantId);
      const wanted = filter.entity_id ? all.filter((c) => c.entity_id === filter.entity_id) : all;
      const alive = await deps.entities.existing(
        tenantId,
        wanted.map((c) => c.entity_id),
      );
      return wanted.filter((c) => alive.has(c.entity_id));
    },

    async update(tenantId: string, checkId: string, patch: UpdateCheckBody): Promise<CheckRecord> {
      if (Object.keys(patch).length === 0)
        throw new ValidationError('nothing to update', [{ path: 'body', message: 'empty' }]);
      return withRetries(OPTIMISTIC_ATTEMPTS, 'the check', () => updateOnce(tenantId, checkId, patch));
    },

    async remove(tenantId: string, checkId: string): Promise<void> {
      await withRetries(OPTIMISTIC_ATTEMPTS, 'the check', () => removeOnce(tenantId, checkId));
    },
  };
}

export type CheckService = ReturnType<typeof createCheckService>;
