import { armedDeadlineMs, shardOf } from '../../domain/schedules.ts';
import { isoTime } from '../../platform/clock.ts';
import { OPTIMISTIC_ATTEMPTS, RETRY, withRetries } from '../../store/retry.ts';
import { ConditionFailedError, type Table, type WriteOp } from '../../store/table.ts';
import type { CheckRun, CheckStore } from '../definitions/check-store.ts';
import { stateRecordedOp } from '../items/check-state-items.ts';
import type { CheckStateRecord } from '../records.ts';

export interface PushStartDeps {
  table: Table;
  checks: Pick<CheckStore, 'run'>;
  dueShards: number;
}

interface RunStateInput {
  tenantId: string;
  checkId: string;
  run?: CheckRun;
  alsoCommit?: WriteOp[];
}

type RunStateSet = Pick<CheckStateRecord, 'run_started_at' | 'run_seen_at'>;

/**
 * Writes what a push check's state keeps of its started run (`set`, from the state as read; null
 * writes nothing: `idle`) and the deadline that follows from it, optimistically on the state's
 * version, with `alsoCommit` in the same transaction. A late deadline whose failure is already
 * recorded (a start after the check went down) is not missed again.
 */
async function recordRunState(
  deps: PushStartDeps,
  input: RunStateInput,
  set: (state: CheckStateRecord) => RunStateSet | null,
): Promise<{ status: 'written'; nextRunAt: string | null } | { status: 'idle' | 'gone' }> {
  let known = input.run;
  return withRetries(OPTIMISTIC_ATTEMPTS, 'the check', async () => {
    const run = known ?? (await deps.checks.run(input.tenantId, input.checkId));
    known = undefined;
    if (!run?.definition.enabled || run.definition.check_type !== 'push') return { status: 'gone' };
    const { definition: check, state } = run;
    const change = set(state);
    if (!change) return { status: 'idle' };
    const recorded = state.last_result_at ? Date.parse(state.last_result_at) : null;
    const deadline = armedDeadlineMs(check, { ...state, ...change }, recorded);
    const nextRunAt = deadline === null ? null : isoTime(deadline);
    try {
      await deps.table.transact([
        stateRecordedOp({
          tenantId: input.tenantId,
          checkId: input.checkId,
          set: change,
          version: state.version,
          due: { nextRunAt, shard: shardOf(input.checkId, deps.dueShards) },
        }),
        ...(input.alsoCommit ?? []),
      ]);
    } catch (err) {
      if (!(err instanceof ConditionFailedError) || !err.failed.includes(0)) throw err;
      return RETRY;
    }
    return { status: 'written', nextRunAt };
  });
}

/**
 * A push check's run started (a /start ping): its state keeps the start, and its deadline moves
 * to the earlier of the normal one and the start's allowance (lib/domain/schedules/heartbeat.ts), so a run
 * that never ends fails as "started but did not finish". No result is recorded and the check's
 * state does not change. `alsoCommit` (the ping's log item) is written in the same transaction.
 */
export async function recordPushStart(
  deps: PushStartDeps,
  input: RunStateInput & { startedAtMs: number },
): Promise<{ status: 'started'; nextRunAt: string | null } | { status: 'gone' }> {
  const written = await recordRunState(deps, input, () => ({ run_started_at: isoTime(input.startedAtMs) }));
  return written.status === 'written'
    ? { status: 'started', nextRunAt: written.nextRunAt }
    : { status: 'gone' };
}

/**
 * A sign of life of a push check's started run (a /log ping, for keepalive_seconds): its state
 * keeps the time and its deadline moves as the keepalive allows. Nothing is written when no run
 * is started (`idle`). `alsoCommit` (the ping's log item) is written in the same transaction.
 */
export async function recordPushAlive(
  deps: PushStartDeps,
  input: RunStateInput & { seenAtMs: number },
): Promise<{ status: 'alive' | 'idle' | 'gone' }> {
  const written = await recordRunState(deps, input, (state) =>
    state.run_started_at ? { run_seen_at: isoTime(input.seenAtMs) } : null,
  );
  return { status: written.status === 'written' ? 'alive' : written.status };
}
