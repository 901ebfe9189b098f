import type { TenantStore } from '../../auth/tenants.ts';
import type { EntityStore } from '../../catalog/entities.ts';
import type { CheckRecord } from '../../check-types/check-record.ts';
import { isOutsideType } from '../../check-types/registry.ts';
import { shardOf } from '../../domain/schedules.ts';
import { type Clock, isoTime } from '../../platform/clock.ts';
import { ConflictError, NotFoundError } from '../../platform/errors.ts';
import { deterministicId } from '../../platform/ids.ts';
import { OPTIMISTIC_ATTEMPTS } from '../../store/retry.ts';
import { ConditionFailedError, type Table, type WriteOp } from '../../store/table.ts';
import { definitionDeletedOp } from '../check-items.ts';
import { createCheckAggregate } from '../definitions/check-aggregate.ts';
import { DEFAULTS } from '../definitions/check-defaults.ts';
import { type CheckStore, checkCreatedOps } from '../definitions/check-store.ts';
import { stateDeletedOp } from '../items/check-state-items.ts';
import type { ResultRecorder } from '../results/result-recorder.ts';
import { checkPartitionPurgeOp } from './check-purge.ts';

/**
 * Outside checks (DECISIONS.md "Outside alerts (wave 6)"): per (entity, integration) one check of
 * type `outside`, made by the integration's first alert on the entity, written only here. Its id
 * is derived from the pair, so concurrent first alerts make one check. It is not counted in the
 * entity's `check_count` (the plan's check limit is the user's), is never scheduled (push mode,
 * no deadline), and its results are the integration's state moves, each held on the integration's
 * tally of the entity (`holdsOn`) so an older reading never lands after a newer one.
 */

export interface OutsideChecksDeps {
  table: Table;
  clock: Clock;
  checks: CheckStore;
  entities: EntityStore;
  tenants: TenantStore;
  recorder: Pick<ResultRecorder, 'record'>;
  dueShards: number;
}

/** Who an outside check belongs to. */
export interface OutsideOwner {
  tenantId: string;
  integrationId: string;
  /** The check's name: the integration's at the first alert. */
  integrationName: string;
  /** When the integration was made: the id's time part, the same for every writer. */
  integrationCreatedMs: number;
  entityId: string;
}

/** The check id of an (integration, entity) pair. */
const outsideCheckId = (owner: OutsideOwner) =>
  deterministicId('chk', owner.integrationCreatedMs, `outside:${owner.integrationId}:${owner.entityId}`);

/** Refuses an API write of an outside check (409): its integration writes it. */
export function refuseOutsideWrite(check: { check_type: string }, verb: string): void {
  if (isOutsideType(check.check_type)) {
    throw new ConflictError(
      `outside checks are written by their integration's alerts and cannot be ${verb}: change or delete the integration instead`,
    );
  }
}

export function createOutsideChecks(deps: OutsideChecksDeps) {
  const aggregate = createCheckAggregate(deps);

  /** The new check's record on `entity`. */
  const recordOf = (owner: OutsideOwner, entity: { blueprint_slug: string; slug: string }) => {
    const at = isoTime(deps.clock.now());
    const check: CheckRecord = {
      id: outsideCheckId(owner),
      tenant_id: owner.tenantId,
      entity_id: owner.entityId,
      blueprint_slug: entity.blueprint_slug,
      entity_slug: entity.slug,
      name: owner.integrationName,
      check_type: 'outside',
      config: { integration_id: owner.integrationId },
      execution_mode: 'push',
      target_url: null,
      method: 'GET',
      headers: {},
      body: null,
      expected_status: DEFAULTS.expected_status,
      body_contains: '',
      interval_seconds: DEFAULTS.interval_seconds,
      timeout_ms: DEFAULTS.timeout_ms,
      failure_threshold: 1,
      success_threshold: 1,
      enabled: true,
      state: 'unknown',
      consecutive_failures: 0,
      last_result_at: null,
      next_run_at: null,
      created_at: at,
      updated_at: at,
      version: 1,
      state_version: 1,
    };
    return check;
  };

  /** The pair's check, made if absent; undefined when the entity is gone. */
  const ensure = async (owner: OutsideOwner): Promise<string | undefined> => {
    const id = outsideCheckId(owner);
    for (let attempt = 0; attempt < OPTIMISTIC_ATTEMPTS; attempt++) {
      if (await deps.checks.run(owner.tenantId, id)) return id;
      let entity: Awaited<ReturnType<typeof aggregate.requireEntity>>;
      try {
        entity = await aggregate.requireEntity(owner.tenantId, owner.entityId);
      } catch (error) {
        if (error instanceof NotFoundError) return undefined;
        throw error;
      }
      const check = recordOf(owner, entity);
      const change = { checkId: id, state: 'unknown' as const, reason: 'outside alerts arrived' };
      const membership = await aggregate.membership(owner.tenantId, entity, change, attempt);
      try {
        await deps.table.transact([
          ...checkCreatedOps(check, shardOf(id, deps.dueShards)),
          ...membership.ops,
        ]);
        await membership.settle();
        return id;
      } catch (error) {
        // Made meanwhile by another request (the next turn finds it), or the entity moved.
        if (!(error instanceof ConditionFailedError)) throw error;
      }
    }
    throw new ConflictError('the entity changed too often while its outside check was made: try again');
  };

  return {
    /**
     * Records the pair's state (`up` also for info alerts only, which move no state): the worst
     * open alert's summary is the result's message, and the alert (its id, key and links back to
     * its sender) its details' `outside_alert`. `stale` when `holdsOn` failed (the caller
     * reads its tally again); `gone` when the entity is.
     */
    async record(
      owner: OutsideOwner,
      reading: {
        state: 'up' | 'degraded' | 'down';
        reason: string | undefined;
        /** The worst open alert (id, key, links to its sender): the result's details say it. */
        cause?: object | undefined;
        holdsOn: WriteOp;
      },
    ): Promise<'recorded' | 'stale' | 'gone'> {
      const checkId = await ensure(owner);
      if (checkId === undefined) return 'gone';
      const outcome = await deps.recorder.record({
        tenantId: owner.tenantId,
        checkId,
        success: reading.state !== 'down',
        degraded: reading.state === 'degraded',
        status_code: 0,
        latency_ms: 0,
        error_message: reading.state === 'up' ? '' : (reading.reason ?? ''),
        ...(reading.state !== 'up' && reading.cause ? { details: { outside_alert: reading.cause } } : {}),
        checkedAtMs: deps.clock.now(),
        holdsOn: reading.holdsOn,
      });
      if (outcome.status === 'stale') return 'stale';
      return outcome.status === 'gone' ? 'gone' : 'recorded';
    },

    /** Deletes the pair's check (the integration is deleted); nothing when there is none. */
    async remove(owner: OutsideOwner): Promise<void> {
      const checkId = outsideCheckId(owner);
      for (let attempt = 0; attempt < OPTIMISTIC_ATTEMPTS; attempt++) {
        const run = await deps.checks.run(owner.tenantId, checkId);
        if (!run) return;
        const check = run.definition;
        const ops: WriteOp[] = [
          definitionDeletedOp(owner.tenantId, checkId, check.version),
          stateDeletedOp(owner.tenantId, checkId),
          checkPartitionPurgeOp(owner.tenantId, checkId),
        ];
        const entity = await aggregate.entityOf(owner.tenantId, check);
        const change = { checkId, state: undefined, reason: 'integration deleted' };
        const membership = entity
          ? await aggregate.membership(owner.tenantId, entity, change, attempt)
          : undefined;
        try {
          await deps.table.transact([...ops, ...(membership?.ops ?? [])]);
          await membership?.settle();
          return;
        } catch (error) {
          if (!(error instanceof ConditionFailedError)) throw error;
        }
      }
      throw new ConflictError('the entity changed too often while the outside check was deleted: try again');
    },
  };
}
