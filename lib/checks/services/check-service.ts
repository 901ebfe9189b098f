import type { TenantStore } from '../../auth/tenants.ts';
import type { EntityStore } from '../../catalog/entities.ts';
import { pushHeartbeatConfig } from '../../check-types/check-config.ts';
import { type CheckRecord, joinCheck } from '../../check-types/check-record.ts';
import { scheduledRunAt, shardOf } from '../../domain/schedules.ts';
import type { Clock } from '../../platform/clock.ts';
import { isoTime } from '../../platform/clock.ts';
import type { Runtime } from '../../platform/config.ts';
import { LimitExceededError, NotFoundError, ValidationError } from '../../platform/errors.ts';
import { newRecordStamp } from '../../platform/ids.ts';
import { countOf } from '../../platform/plural.ts';
import { belowLimit } from '../../store/conditions.ts';
import type { CursorSeal } from '../../store/cursor-seal.ts';
import { OPTIMISTIC_ATTEMPTS, RETRY, withRetries } from '../../store/retry.ts';
import { ConditionFailedError, type Table, type WriteOp } from '../../store/table.ts';
import { createCellMembership } from '../cells/cell-membership.ts';
import { inCell, moveCells } from '../cells/cell-moves.ts';
import { createCellView } from '../cells/cell-view.ts';
import {
  type CheckDefinition,
  type CreateCheckBody,
  definitionFromCreate,
  definitionFromUpdate,
  type UpdateCheckBody,
} from '../check-input.ts';
import { definitionDeletedOp, definitionUpdatedOp } from '../check-items.ts';
import { createCheckAggregate } from '../definitions/check-aggregate.ts';
import type { CheckFilter, NamedCheck } from '../definitions/check-filter.ts';
import { type CheckRun, type CheckStore, checkCreatedOps } from '../definitions/check-store.ts';
import { changesScheduling, withScheduleInterval } from '../definitions/push-schedule.ts';
import { stateDeletedOp, stateOfDefinitionOp } from '../items/check-state-items.ts';
import { type CheckPageQuery, createCheckPager } from './check-pages.ts';
import { checkPartitionPurgeOp } from './check-purge.ts';
import { refuseOutsideWrite } from './outside-checks.ts';

export interface CheckServiceDeps {
  table: Table;
  checks: CheckStore;
  entities: EntityStore;
  tenants: TenantStore;
  clock: Clock;
  dueShards: number;
  /** Seals the cursors of the paged check list. */
  cursors: CursorSeal;
  /** Where this process runs: a check type it cannot run is refused at create. */
  runtime: Runtime;
}

/** Check CRUD: the plan limit, the entity's check states and the due index move in one transaction. */
export function createCheckService(deps: CheckServiceDeps) {
  const { table, clock } = deps;
  const aggregate = createCheckAggregate(deps);
  const cells = createCellMembership({ table, dueShards: deps.dueShards, nowMs: () => clock.now() });
  const cellView = createCellView({ table, clock });
  const pager = createCheckPager({ ...deps, cellView });

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
    const [shown] = await cellView.overlay([joinCheck(run.definition, run.state)]);
    if (!shown) throw new NotFoundError('check');
    return shown;
  };

  /** The check with its entity's name (its slug while the entity's id pointer has none). */
  const named = async (tenantId: string, check: CheckRecord): Promise<NamedCheck> => {
    const names = await deps.entities.names(tenantId, [check.entity_id]);
    return { ...check, entity_name: names.get(check.entity_id) ?? check.entity_slug };
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

  const createOnce = async (
    tenantId: string,
    body: CreateCheckBody,
    def: CheckDefinition,
    limit: number,
    attempt: number,
  ) => {
    const entity = await aggregate.requireEntity(tenantId, body.entity_id);
    const { id, now, at } = newRecordStamp('chk', clock);
    const draft = { id, ...def, last_result_at: null, next_run_at: null };
    const check: CheckRecord = {
      ...draft,
      tenant_id: tenantId,
      entity_id: entity.id,
      blueprint_slug: entity.blueprint_slug,
      entity_slug: entity.slug,
      state: 'unknown',
      consecutive_failures: 0,
      next_run_at: scheduledRunAt({ ...draft, heartbeat: pushHeartbeatConfig(draft) }, now, false),
      created_at: at,
      updated_at: at,
      version: 1,
      state_version: 1,
    };
    const entityOps = await aggregate.membershipOps(tenantId, entity, {
      checkId: id,
      state: check.enabled ? 'unknown' : undefined,
      reason: 'check created',
      countDelta: 1,
      condition: belowLimit('check_count', limit),
      nowMs: now,
    });
    // An enabled pull check joins a cell, which schedules it: the check itself is not in the due index.
    const joined = inCell(check)
      ? await cells.join(
          { id, tenant_id: tenantId, interval_seconds: check.interval_seconds, version: 1 },
          attempt,
        )
      : undefined;
    const stored: CheckRecord = joined?.place ? { ...check, cell: joined.place, next_run_at: null } : check;
    try {
      await table.transact([
        ...checkCreatedOps(stored, shardOf(id, deps.dueShards)),
        ...(joined?.ops ?? []),
        ...entityOps,
        ...(await deps.checks.slugOps(tenantId, id, undefined, stored)),
      ]);
      const [shown] = await cellView.overlay([stored]);
      return shown ?? stored;
    } catch (err) {
      if (!(err instanceof ConditionFailedError)) throw err;
      const fresh = await aggregate.requireEntity(tenantId, body.entity_id);
      if ((fresh.check_count ?? 0) >= limit) {
        throw new LimitExceededError(
          `this entity already has ${countOf(limit, 'check')} (check_limit_per_entity)`,
        );
      }
      return RETRY;
    }
  };

  const updateOnce = async (tenantId: string, checkId: string, patch: UpdateCheckBody, attempt: number) => {
    const current = await requireCheck(tenantId, checkId);
    refuseOutsideWrite(current, 'edited');
    const now = clock.now();
    const def = withScheduleInterval(definitionFromUpdate(current, patch), now);
    const schedulingChanged = changesScheduling(current, def);
    const merged = { ...current, ...def };
    const nextRunAt = scheduledRunAt(
      { ...merged, heartbeat: pushHeartbeatConfig(merged) },
      now,
      !schedulingChanged,
    );
    const updatedAt = isoTime(now);
    const move = await moveCells(cells, current, merged, {
      nowMs: now,
      retentionDays: async () => (await deps.tenants.requireTenant(tenantId)).retention_days,
    });
    const { cell } = move;
    const { state, consecutive_failures, last_result_at } = current;
    // Unless scheduling changed, next_run_at is left to the generator's claims (no stale overwrite),
    // and the answer shows the stored one.
    const scheduled = cell ? null : schedulingChanged ? nextRunAt : current.next_run_at;
    const ops: WriteOp[] = [
      definitionUpdatedOp(
        tenantId,
        checkId,
        {
          ...def,
          cell,
          ...(move.formerCells ? { former_cells: move.formerCells } : {}),
          updated_at: updatedAt,
        },
        current.version,
      ),
      ...move.ops,
      ...(await deps.checks.slugOps(tenantId, checkId, current, merged)),
      // The state item's copies of the definition, its schedule when that changed, and a new
      // version: a result in flight, evaluated against the old definition, is refused and retried.
      stateOfDefinitionOp({
        tenantId,
        checkId,
        copies: {
          execution_mode: def.execution_mode,
          interval_seconds: def.interval_seconds,
          definition_version: current.version + 1,
        },
        running: current.cell && !cell ? { state, consecutive_failures, last_result_at } : undefined,
        due:
          schedulingChanged || cell
            ? { nextRunAt: scheduled, shard: shardOf(checkId, deps.dueShards) }
            : undefined,
      }),
    ];
    let settle = async () => {};
    if (def.enabled !== current.enabled) {
      const entity = await aggregate.entityOf(tenantId, current);
      if (!entity) throw new NotFoundError('check');
      const state = def.enabled ? current.state : undefined;
      const reason = def.enabled ? 'check enabled' : 'check disabled';
      const membership = await aggregate.membership(tenantId, entity, { checkId, state, reason }, attempt);
      ops.push(...membership.ops);
      settle = membership.settle;
    }
    if ((await commitOrRetry(ops)) === RETRY) return RETRY;
    await settle();
    const updated: CheckRecord = {
      ...merged,
      cell,
      ...(move.formerCells ? { former_cells: move.formerCells } : {}),
      next_run_at: scheduled,
      updated_at: updatedAt,
      version: current.version + 1,
      state_version: current.state_version + 1,
    };
    const [shown] = await cellView.overlay([updated]);
    return shown ?? updated;
  };

  const removeOnce = async (tenantId: string, checkId: string, attempt: number) => {
    const check = await requireCheck(tenantId, checkId);
    refuseOutsideWrite(check, 'deleted');
    const ops: WriteOp[] = [
      definitionDeletedOp(tenantId, checkId, check.version),
      stateDeletedOp(tenantId, checkId),
      checkPartitionPurgeOp(tenantId, checkId),
      ...(check.cell ? await cells.leave(check.cell, checkId) : []),
    ];
    const entity = await aggregate.entityOf(tenantId, check);
    const change = { checkId, state: undefined, reason: 'check deleted', countDelta: -1 };
    const membership = entity ? await aggregate.membership(tenantId, entity, change, attempt) : undefined;
    const done = await commitOrRetry([...ops, ...(membership?.ops ?? [])]);
    if (done !== RETRY) await membership?.settle();
    return done;
  };

  return {
    requireCheck,
    requireRun,

    async create(tenantId: string, body: CreateCheckBody): Promise<CheckRecord> {
      const def = withScheduleInterval(definitionFromCreate(body, deps.runtime), clock.now());
      const tenant = await deps.tenants.requireTenant(tenantId);
      const limit = tenant.check_limit_per_entity;
      if (limit <= 0)
        throw new LimitExceededError('your plan allows no checks (check_limit_per_entity is 0)');
      let attempt = 0;
      return withRetries(OPTIMISTIC_ATTEMPTS, 'the entity', () =>
        createOnce(tenantId, body, def, limit, attempt++),
      );
    },

    /** Every check of the tenant (or of one entity) that matches `filter`, named, oldest first (unbounded). */
    list(tenantId: string, filter: CheckFilter & { entity_id?: string | undefined }) {
      return pager.all(tenantId, filter);
    },

    /** A page of the tenant's checks (or one entity's) that match the filters, oldest first, read with bounded queries. */
    page(tenantId: string, query: CheckPageQuery) {
      return pager.page(tenantId, query);
    },

    /** The check with its entity's name (as GET /v1/checks/{id} shows it), or 404. */
    async read(tenantId: string, checkId: string): Promise<NamedCheck> {
      return named(tenantId, await requireCheck(tenantId, checkId));
    },

    named,

    async update(tenantId: string, checkId: string, patch: UpdateCheckBody): Promise<CheckRecord> {
      if (Object.keys(patch).length === 0)
        throw new ValidationError('nothing to update', [{ path: 'body', message: 'empty' }]);
      let attempt = 0;
      return withRetries(OPTIMISTIC_ATTEMPTS, 'the check', () =>
        updateOnce(tenantId, checkId, patch, attempt++),
      );
    },

    async remove(tenantId: string, checkId: string): Promise<void> {
      let attempt = 0;
      await withRetries(OPTIMISTIC_ATTEMPTS, 'the check', () => removeOnce(tenantId, checkId, attempt++));
    },
  };
}

export type CheckService = ReturnType<typeof createCheckService>;
