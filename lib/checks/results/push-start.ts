import { armedDeadlineMs, shardOf } from '../../domain/schedules.ts';
import { isoTime } from '../../platform/clock.ts';
import { OPTIMISTIC_ATTEMPTS, RETRY, withRetries } from '../../store/retry.ts';
import { ConditionFailedError, type Table, type WriteOp } from '../../store/table.ts';
import type { CheckRun, CheckStore } from '../definitions/check-store.ts';
import { stateRecordedOp } from './check-state-items.ts';

export interface PushStartDeps {
  table: Table;
  checks: Pick<CheckStore, 'run'>;
  dueShards: number;
}

/**
 * A push check's run started (a /start ping): its state keeps the start, and its deadline moves
 * to the earlier of the normal one and the start's allowance (lib/domain/schedules/heartbeat.ts), so a run
 * that never ends fails as "started but did not finish". No result is recorded and the check's
 * state does not change. `alsoCommit` (the ping's log item) is written in the same transaction.
 */
export async function recordPushStart(
  deps: PushStartDeps,
  input: { tenantId: string; checkId: string; startedAtMs: number; run?: CheckRun; alsoCommit?: WriteOp[] },
): Promise<{ status: 'started'; nextRunAt: string | null } | { status: 'gone' }> {
  let known = input.run;
  return withRetries(OPTIMISTIC_ATTEMPTS, 'the check', async () => {
    const run = known ?? (await deps.checks.run(input.tenantId, input.checkId));
    known = undefined;
    if (!run?.definition.enabled || run.definition.check_type !== 'push') return { status: 'gone' };
    const { definition: check, state } = run;
    const startedAt = isoTime(input.startedAtMs);
    // The earlier of the start's allowance and the late deadline; a late deadline whose failure is
    // already recorded (a start after the check went down) is not missed again.
    const recorded = state.last_result_at ? Date.parse(state.last_result_at) : null;
    const deadline = armedDeadlineMs(check, { ...state, run_started_at: startedAt }, recorded);
    const nextRunAt = deadline === null ? null : isoTime(deadline);
    try {
      await deps.table.transact([
        stateRecordedOp({
          tenantId: input.tenantId,
          checkId: input.checkId,
          set: { run_started_at: startedAt },
          version: state.version,
          due: { nextRunAt, shard: shardOf(input.checkId, deps.dueShards) },
        }),
        ...(input.alsoCommit ?? []),
      ]);
    } catch (err) {
      if (!(err instanceof ConditionFailedError) || !err.failed.includes(0)) throw err;
      return RETRY;
    }
    return { status: 'started', nextRunAt };
  });
}

/**
 * A sign of life of a push check's started run (a /log ping, for keepalive_seconds): its state
 * keeps the time and its deadline moves as the keepalive allows. Nothing is written when no run
 * is started (`idle`). `alsoCommit` (the ping's log item) is written in the same transaction.
 */
export async function recordPushAlive(
  deps: PushStartDeps,
  input: { tenantId: string; checkId: string; seenAtMs: number; run?: CheckRun; alsoCommit?: WriteOp[] },
): Promise<{ status: 'alive' | 'idle' | 'gone' }> {
  let known = input.run;
  return withRetries(OPTIMISTIC_ATTEMPTS, 'the check', async () => {
    const run = known ?? (await deps.checks.run(input.tenantId, input.checkId));
    known = undefined;
    if (!run?.definition.enabled || run.definition.check_type !== 'push') return { status: 'gone' };
    const { definition: check, state } = run;
    if (!state.run_started_at) return { status: 'idle' };
    const seenAt = isoTime(input.seenAtMs);
    const recorded = state.last_result_at ? Date.parse(state.last_result_at) : null;
    const deadline = armedDeadlineMs(check, { ...state, run_seen_at: seenAt }, recorded);
    try {
      await deps.table.transact([
        stateRecordedOp({
          tenantId: input.tenantId,
          checkId: input.checkId,
          set: { run_seen_at: seenAt },
          version: state.version,
          due: {
            nextRunAt: deadline === null ? null : isoTime(deadline),
            shard: shardOf(input.checkId, deps.dueShards),
          },
        }),
        ...(input.alsoCommit ?? []),
      ]);
    } catch (err) {
      if (!(err instanceof ConditionFailedError) || !err.failed.includes(0)) throw err;
      return RETRY;
    }
    return { status: 'alive' };
  });
}
