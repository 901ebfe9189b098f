import type { TenantStore } from '../../auth/tenants.ts';
import { createTenantCache } from '../../auth/tenants.ts';
import { parseEntityState, readEntityItem } from '../../catalog/entities.ts';
import { rollResult } from '../../domain/rollups.ts';
import { deadlineAfterMissMs, pushDeadline, shardOf } from '../../domain/schedules.ts';
import { applyResult } from '../../domain/states.ts';
import { resultsCountedOp } from '../../metrics/metric-counter-items.ts';
import type { Clock } from '../../platform/clock.ts';
import { isoTime } from '../../platform/clock.ts';
import { deterministicId, newId } from '../../platform/ids.ts';
import { createKeyedQueue } from '../../platform/keyed-queue.ts';
import type { Logger } from '../../platform/logger.ts';
import { transactIf } from '../../store/items.ts';
import { OPTIMISTIC_ATTEMPTS, RETRY, withRetries } from '../../store/retry.ts';
import { ConditionFailedError, type Table, type WriteOp } from '../../store/table.ts';
import type { CheckRun, CheckStore } from '../definitions/check-store.ts';
import { checkMovesOps } from '../definitions/entity-state-ops.ts';
import { type DueAt, stateRecordedOp } from '../items/check-state-items.ts';
import { resultRecordedOp } from '../items/result-items.ts';
import { rollupAddOp } from '../items/rollup-items.ts';
import type { CheckStateRecord, ResultRecord, TransitionRecord } from '../records.ts';
import { closeCheckDay, dayClosedBy } from './day-rollups.ts';
import type { RecordOutcome, ResultInput } from './result-input.ts';

export type { RecordOutcome, ResultInput };

export interface ResultRecorderDeps {
  table: Table;
  checks: CheckStore;
  tenants: TenantStore;
  clock: Clock;
  dueShards: number;
  logger: Logger;
}

/** A slot's result id: the same whoever records it, so a second decision of the slot is a duplicate. */
export function slotResultId(checkId: string, slotMs: number, synthetic = false): string {
  return deterministicId('res', slotMs, `${checkId}:${slotMs}:${synthetic ? 's' : 'p'}`);
}

/**
 * Records one result: the result, the check's state and counters, the entity's aggregate and the
 * transition records, in ONE transaction (optimistic on the check state's and the entity's versions).
 * A slot recorded before answers `duplicate`; a deleted or disabled check answers `gone`, and so
 * does a pull check in a cell (its cell's slots record its results).
 */
export function createResultRecorder(deps: ResultRecorderDeps) {
  // Only the retention is read from the tenant here: a change to it applies within TENANT_CACHE_MS.
  const tenants = createTenantCache(deps);
  const entityTurns = createKeyedQueue();

  const attempt = async (
    input: ResultInput,
    known: CheckRun | undefined,
  ): Promise<RecordOutcome | typeof RETRY> => {
    const usable =
      known?.definition.id === input.checkId && known.definition.tenant_id === input.tenantId
        ? known
        : undefined;
    const run = usable ?? (await deps.checks.run(input.tenantId, input.checkId));
    if (!run?.definition.enabled) return { status: 'gone' };
    if (run.definition.cell) {
      // A result in flight across the check's move into a cell (an API write, the migration):
      // written here it would fork the state the cell keeps, so nothing is recorded.
      deps.logger.debug('result dropped: the check runs in a cell', {
        check_id: input.checkId,
        cell_id: run.definition.cell.cell_id,
      });
      return { status: 'gone' };
    }
    const { definition: check, state: current } = run;
    const tenant = await tenants.requireTenant(input.tenantId);
    const now = deps.clock.now();
    const checkedAt = isoTime(input.checkedAtMs);
    const result: ResultRecord = {
      id:
        input.slotMs !== undefined
          ? slotResultId(check.id, input.slotMs, input.synthetic === true)
          : newId('res', input.checkedAtMs),
      check_id: check.id,
      status_code: input.status_code,
      latency_ms: Math.max(0, Math.round(input.latency_ms)),
      success: input.success,
      ...(input.success && input.degraded ? { degraded: true } : {}),
      error_message: input.error_message,
      checked_at: checkedAt,
      ...(input.synthetic ? { synthetic: true } : {}),
      ...(input.details ? { details: input.details } : {}),
      ...(input.locations ? { locations: input.locations } : {}),
      ...(input.inconclusive ? { inconclusive: true } : {}),
      ...(input.manual ? { manual: true } : {}),
      ...(input.pinged ? { pinged: true } : {}),
    };
    const ttl = Math.floor(input.checkedAtMs / 1000) + tenant.retention_days * 86_400;
    if (input.inconclusive) {
      // Undecided: the slot's result is kept (its locations say why), and nothing else moves.
      const written = await transactIf(deps.table, [
        resultRecordedOp(result, {
          ...(input.slotMs !== undefined ? { slotAt: isoTime(input.slotMs) } : {}),
          ttl,
        }),
      ]);
      return written ? { status: 'recorded', result, run, transitions: [] } : { status: 'duplicate' };
    }
    const applied = applyResult(
      current,
      { success: input.success, degraded: input.degraded, message: input.error_message },
      check.failure_threshold,
      check.success_threshold ?? 1,
    );
    // success_threshold's count, written only while counting or to reset one: most items never carry it.
    const successes =
      applied.next.consecutive_successes || current.consecutive_successes
        ? { consecutive_successes: applied.next.consecutive_successes ?? 0 }
        : {};
    const lastResultAt =
      current.last_result_at && current.last_result_at > checkedAt ? current.last_result_at : checkedAt;
    // A report from the job itself (not the dead man's switch) is its last push and ends its run
    // (or, told which runs stay open, the state keeps the newest of them).
    const push = check.execution_mode === 'push';
    const ended =
      !input.synthetic && input.openRunAt !== undefined
        ? (current.run_started_at ?? null) !== input.openRunAt
          ? { run_started_at: input.openRunAt }
          : {}
        : current.run_started_at && (!input.synthetic || input.endsRun)
          ? { run_started_at: null }
          : {};
    const reported: Partial<CheckStateRecord> =
      push && !input.synthetic ? { last_push_at: lastResultAt, ...ended } : push ? ended : {};
    const set: Partial<CheckStateRecord> = {
      state: applied.next.state,
      consecutive_failures: applied.next.consecutive_failures,
      ...successes,
      last_result_at: lastResultAt,
      ...reported,
      ...(input.locations ? { last_locations: input.locations } : {}),
    };
    const retention = tenant.retention_days;
    const rollup = rollResult(current.current_rollup, { ...result, checkedAtMs: input.checkedAtMs });
    if (rollup.current) set.current_rollup = rollup.current;
    let due: DueAt | undefined;
    // The state as this write leaves it (built from the parsed state and the values set here).
    const after: CheckStateRecord = { ...current, ...set, version: current.version + 1 };
    if (check.check_type === 'push') {
      // The dead man's switch's own result carries the deadline its claim set; a report re-arms it.
      let deadline = input.nextRunAtMs !== undefined ? input.nextRunAtMs : pushDeadline(check, after)?.atMs;
      // A scheduler that was down replays no burst of missed runs: one failure, then the next deadline.
      if (input.synthetic && deadline != null && deadline <= now) deadline = deadlineAfterMissMs(check, now);
      const nextRunAt = deadline == null ? null : isoTime(deadline);
      due = { nextRunAt, shard: shardOf(check.id, deps.dueShards) };
      after.next_run_at = nextRunAt;
    }
    const ops: WriteOp[] = [
      // Keyed by the slot when there is one: a redelivered job, probed again later, collides.
      resultRecordedOp(result, {
        ...(input.slotMs !== undefined ? { slotAt: isoTime(input.slotMs) } : {}),
        ttl,
      }),
      // The check's small state item: its definition is only read (the API writes it, and bumps
      // this version too, so a result in flight across an API write is refused and retried).
      stateRecordedOp({ tenantId: input.tenantId, checkId: check.id, set, version: current.version, due }),
    ];
    if (rollup.stored) {
      ops.push(rollupAddOp(check.id, rollup.stored, retention));
      // A bucket leaving the state item (or a late result's own) moves the tenant's result counters.
      ops.push(resultsCountedOp(input.tenantId, check.id, rollup.stored));
    }
    if (input.alsoCommit) ops.push(...[input.alsoCommit].flat());
    const held = input.holdsOn ? ops.push(input.holdsOn) - 1 : -1;
    // A ping's plain success that moves no state: its result is written apart (writeApart).
    const apart = input.pinged === true && !applied.changed && !input.alsoCommit && held === -1;

    const commit = async (): Promise<RecordOutcome | typeof RETRY> => {
      const transitions: TransitionRecord[] = [];
      // Only a result that changes the check's state touches its entity, which must then still
      // exist (its update would otherwise create it again). One that changes nothing writes only
      // the check's state and partition: if the entity was deleted meanwhile, its purge deletes the
      // check and that partition after it (lib/purge), and the state's version
      // condition refuses any result once the check is gone.
      if (applied.changed) {
        const entityItem = await readEntityItem(
          deps.table,
          input.tenantId,
          check.blueprint_slug,
          check.entity_slug,
        );
        if (!entityItem) return { status: 'gone' };
        const moved = await checkMovesOps(deps.table, {
          tenantId: input.tenantId,
          entity: parseEntityState(entityItem),
          moves: [
            { check_id: check.id, from: current.state, to: applied.next.state, reason: applied.reason },
          ],
          transitionId: () => newId('trn', now),
          nowMs: now,
          retentionDays: retention,
        });
        ops.push(...moved.ops);
        transitions.push(...moved.transitions);
      }
      try {
        await (apart ? writeApart(ops, () => landed(input, after)) : deps.table.transact(ops));
      } catch (err) {
        if (!(err instanceof ConditionFailedError)) throw err;
        if (err.failed.includes(0)) return { status: 'duplicate' };
        if (err.failed.includes(held)) return { status: 'stale' };
        return RETRY;
      }
      const closed = dayClosedBy(rollup);
      if (closed) {
        // Once per check and day. A close that fails is not retried: reads fold that day's 5-minute
        // rollups instead (lib/checks/results/day-rollups.ts), so it costs time, never correctness.
        await closeCheckDay(deps.table, check.id, closed, retention).catch((error: unknown) =>
          deps.logger.warn('closing a day of rollups failed', {
            check_id: check.id,
            date: closed,
            error: String(error),
          }),
        );
      }
      return { status: 'recorded', result, run: { definition: check, state: after }, transitions };
    };

    // A result that moves the check also updates its entity, optimistic on the entity's version.
    // When a shared dependency fails, many checks of one entity move at once: in this process
    // they take turns per entity (reading it in their turn) instead of racing for its version.
    if (!applied.changed) return commit();
    return entityTurns.run(`${input.tenantId}/${check.blueprint_slug}/${check.entity_slug}`, commit);
  };

  /**
   * The state's update (held on its version; with a rollup bucket leaving it), then the result's
   * put: 1 WRU each, not 2 + 2 in a transaction (docs/data-model.md "A ping's writes": a crash
   * between them loses only the result; the ping, unanswered, is sent again and moves nothing
   * twice). A refused update is retried unless the state is already this one (`landed`: its answer lost).
   */
  const writeApart = async ([resultOp, ...stateOps]: WriteOp[], landedAlready: () => Promise<boolean>) => {
    if (!resultOp) throw new Error('a result to write');
    try {
      await deps.table.transact(stateOps);
    } catch (err) {
      if (!(err instanceof ConditionFailedError)) throw err;
      if (!(await landedAlready())) throw new ConditionFailedError([1], { cause: err });
    }
    await transactIf(deps.table, [resultOp]);
  };

  /** Whether the check's state is now `after` (version, last result and push, bucket): this result's own write. */
  const landed = async (input: ResultInput, after: CheckStateRecord) => {
    const state = (await deps.checks.run(input.tenantId, input.checkId))?.state;
    const [is, was] = [state?.current_rollup, after.current_rollup];
    return (
      state?.version === after.version &&
      state.last_result_at === after.last_result_at &&
      state.last_push_at === after.last_push_at &&
      is?.bucket_start === was?.bucket_start &&
      is?.total === was?.total
    );
  };

  /**
   * One check's results are recorded one after another in this process (concurrent ones would all
   * read the same version and all but one would lose the optimistic write and retry). Each check's
   * chain keeps the check as its last recorded result left it, so the next one need not read it.
   */
  const chains = new Map<string, { tail: Promise<unknown>; latest: CheckRun | undefined }>();

  return {
    record: (input: ResultInput): Promise<RecordOutcome> => {
      const queued = chains.get(input.checkId);
      const chain = queued ?? { tail: Promise.resolve(), latest: undefined };
      chains.set(input.checkId, chain);
      let first = true;
      const run = () =>
        withRetries(OPTIMISTIC_ATTEMPTS * 2, 'the check', async () => {
          // First attempt: the check as this chain's previous result left it, else as the caller
          // read it. Stale only if something else wrote it since: the version condition fails and
          // the retry reads it again.
          const known = first ? (queued ? chain.latest : input.run) : undefined;
          first = false;
          const outcome = await attempt(input, known);
          if (outcome !== RETRY) chain.latest = outcome.status === 'recorded' ? outcome.run : undefined;
          return outcome;
        });
      const next = chain.tail.then(run, run);
      const tail = next.catch(() => {
        chain.latest = undefined;
      });
      chain.tail = tail;
      void tail.then(() => {
        if (chain.tail === tail) chains.delete(input.checkId);
      });
      return next;
    },
  };
}

export type ResultRecorder = ReturnType<typeof createResultRecorder>;
