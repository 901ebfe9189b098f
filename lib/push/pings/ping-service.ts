import { type ResultRecorder, recordPushAlive, recordPushStart } from '../../checks/probing.ts';
import type { CheckService, CheckStore } from '../../checks/services.ts';
import { type Clock, isoTime } from '../../platform/clock.ts';
import { NotFoundError } from '../../platform/errors.ts';
import type { Logger } from '../../platform/logger.ts';
import { ConditionFailedError, type Table, type WriteOp } from '../../store/table.ts';
import { evictOldPings, newPing, nextPingSeq, type PingRecord, pingRecordedOp } from '../log/ping-items.ts';
import { newRunId, type RunRecord, runLoggedOp, runWrittenOp, withExcerpt } from '../runs/run-items.ts';
import { learnedNormal } from '../runs/run-normal.ts';
import { judgeEnd } from '../runs/run-rules.ts';
import { type PingAction, plainSuccess } from './ping-request.ts';
import { endingRun, MAX_RUN_MS, openRun, runEndedOp, runStartedOp } from './ping-run-items.ts';
import { startBreaches, startFlags } from './start-rules.ts';

export interface PingServiceDeps {
  table: Table;
  checkService: Pick<CheckService, 'requireRun'>;
  checks: Pick<CheckStore, 'run'>;
  recorder: ResultRecorder;
  clock: Clock;
  logger: Logger;
  /** `pingLogKeep`: the pings kept per check (older ones are deleted as new ones arrive). */
  config: { dueShards: number; pingLogKeep: number };
}

/** One ping as received: what it reports and what the log keeps of the request. */
export interface PingInput extends PingAction {
  tenantId: string;
  checkId: string;
  rid?: string | undefined;
  body: string;
  bodyTruncated: boolean;
  bodyOverBudget?: boolean | undefined; // cut: the tenant's ping body budget was spent
  method: string;
  sourceIp: string;
  userAgent: string;
  /** The tenant's retention: the ping's log item expires with it. */
  retentionDays: number;
}

type CheckRunOf = Awaited<ReturnType<PingServiceDeps['checkService']['requireRun']>>;

/** The push config of the check a ping is for (its run rules). */
const pushConfig = (run: CheckRunOf) => (run.definition.check_type === 'push' ? run.definition.config : {});

/**
 * Records pings (Healthchecks' Pinging API, DECISIONS.md "Heartbeats" and "Cron runs (wave 6)"):
 * each logged ping's item is written in the same transaction as what it records; a plain success
 * (above) is only its result, which is its run of unknown duration too. A success, /fail or /<exit status> is a result judged
 * by the run rules (lib/push/runs/run-rules.ts: its run's duration, from the start of the same
 * run id, is the result's latency_ms; too short fails, too long or far outside the learned normal
 * is degraded) and ends its run item; a /start keeps the run's start on the check's state and as
 * an open run, writes its run item running, and with overlap: alert is first a failure when
 * another run is running; a /log is a log item, the running run's excerpt and, with
 * keepalive_seconds, its sign of life. A disabled (paused) check keeps every ping and changes
 * nothing, as Healthchecks does for a paused check with manual resume: the ping is answered OK and
 * logged as ignored (Vigil never enables a check because of a ping).
 */
export function createPingService(deps: PingServiceDeps) {
  /**
   * Writes the ping (`log(ping)`: its log item and slot, in the transaction of what it records).
   */
  const write = async (
    input: PingInput,
    run: Awaited<ReturnType<PingServiceDeps['checkService']['requireRun']>>,
    log: (ping: PingRecord) => WriteOp[],
  ): Promise<PingRecord> => {
    const { tenantId, checkId } = input;
    const logged = async (ping: PingRecord) => {
      await deps.table.transact(log(ping));
    };
    const now = deps.clock.now();
    const base: Omit<PingRecord, 'id' | 'at'> = {
      check_id: checkId,
      kind: input.kind,
      ...(input.exitStatus !== undefined ? { exit_status: input.exitStatus } : {}),
      ...(input.rid ? { rid: input.rid } : {}),
      body: input.body,
      ...(input.bodyTruncated ? { body_truncated: true } : {}),
      ...(input.bodyOverBudget ? { body_over_budget: true } : {}),
      method: input.method,
      source_ip: input.sourceIp,
      user_agent: input.userAgent,
    };
    const ignored = async () => {
      const ping = newPing({ ...base, ignored: true }, now);
      await logged(ping);
      return ping;
    };
    const config = pushConfig(run);
    if (input.kind === 'log') {
      const ping = newPing(base, now);
      // keepalive_seconds: a /log of a started run is its sign of life (the deadline moves with it).
      const alive =
        config.keepalive_seconds !== undefined && run.definition.enabled && run.state.run_started_at
          ? await recordPushAlive(
              { table: deps.table, checks: deps.checks, dueShards: deps.config.dueShards },
              { tenantId, checkId, seenAtMs: now, run, alsoCommit: log(ping) },
            )
          : undefined;
      if (alive?.status !== 'alive') await logged(ping);
      await logToRun(input, run, now);
      return ping;
    }
    if (!run.definition.enabled) return ignored();

    if (input.kind === 'start') {
      const ping = newPing(base, now);
      const runId = newRunId(now);
      // overlap: alert and early_seconds: a start breaking them is a failure, recorded first (a
      // result ends the state's started run; this start then starts its own).
      const shape = { interval_seconds: run.definition.interval_seconds, config };
      const breach = await startBreaches(deps.table, checkId, shape, now);
      if (breach) {
        const told = await deps.recorder.record({
          tenantId,
          checkId,
          success: false,
          status_code: 0,
          latency_ms: 0,
          error_message: breach.message,
          checkedAtMs: now,
          run,
        });
        if (told.status === 'gone') return ignored();
      }
      const started = await recordPushStart(
        { table: deps.table, checks: deps.checks, dueShards: deps.config.dueShards },
        {
          tenantId,
          checkId,
          startedAtMs: now,
          ...(breach ? {} : { run }),
          alsoCommit: [
            ...log(ping),
            runStartedOp({
              checkId,
              rid: input.rid,
              startedAtMs: now,
              pingId: ping.id,
              runId,
              flags: breach?.flags ?? [],
            }),
            runWrittenOp(
              {
                id: runId,
                check_id: checkId,
                started_at: isoTime(now),
                ended_at: null,
                duration_ms: null,
                outcome: 'running',
                ...(input.rid ? { rid: input.rid } : {}),
                ...withExcerpt(input.body),
                flags: breach?.flags ?? [],
              },
              input.retentionDays,
            ),
          ],
        },
      );
      return started.status === 'started' ? ping : ignored();
    }

    // An end: its run is the open start of the same run id. Without a run id, only a check whose
    // state shows a run started reads it (most pings are plain successes: no read for them); the
    // state then keeps the newest run still open, if any (ping-run-items.ts endingRun).
    const { open, openRunAt } =
      input.rid !== undefined || run.state.run_started_at
        ? await endingRun(deps.table, checkId, input.rid, now)
        : { open: undefined, openRunAt: undefined };
    const elapsed = open ? now - open.startedAtMs : undefined;
    const durationMs = elapsed !== undefined && elapsed >= 0 && elapsed < MAX_RUN_MS ? elapsed : undefined;
    const end = {
      kind: input.kind,
      exitStatus: input.exitStatus,
      durationMs,
      startedAtMs: open?.startedAtMs,
    };
    // A timed success is also measured against the job's learned normal (unless learn: false).
    const learns = config.learn !== false && durationMs !== undefined && judgeEnd(end, config).success;
    const verdict = judgeEnd(
      end,
      config,
      learns ? await learnedNormal(deps.table, checkId, config.schedule) : undefined,
    );
    const ping = newPing({ ...base, ...(durationMs !== undefined ? { duration_ms: durationMs } : {}) }, now);
    const ended: RunRecord = {
      id: open?.runId ?? newRunId(now),
      check_id: checkId,
      started_at: open ? isoTime(open.startedAtMs) : null,
      ended_at: isoTime(now),
      duration_ms: durationMs ?? null,
      outcome: verdict.outcome,
      ...(input.exitStatus !== undefined ? { exit_status: input.exitStatus } : {}),
      ...(input.rid ? { rid: input.rid } : {}),
      ...withExcerpt(input.body),
      flags: [...startFlags(open), ...verdict.flags],
    };
    const outcome = await deps.recorder.record({
      tenantId,
      checkId,
      success: verdict.success,
      ...(verdict.degraded ? { degraded: true } : {}),
      status_code: 0,
      latency_ms: durationMs ?? 0,
      error_message: verdict.message,
      checkedAtMs: now,
      run,
      ...(openRunAt !== undefined ? { openRunAt } : {}),
      // The end closes its run: a second end of the same run id finds no start to pair with.
      alsoCommit: [
        ...log(ping),
        ...(open ? [runEndedOp(open)] : []),
        runWrittenOp(ended, input.retentionDays),
      ],
    });
    if (outcome.status === 'gone') return ignored();
    return ping;
  };

  /** A /log of a running run: its sign of life, and its output the run's excerpt (after the ping is logged). */
  const logToRun = async (input: PingInput, run: CheckRunOf, now: number) => {
    if (input.rid === undefined && !run.state.run_started_at) return;
    const open = await openRun(deps.table, input.checkId, input.rid);
    if (!open?.runId) return;
    const op = runLoggedOp(input.checkId, open.runId, now, withExcerpt(input.body).log_excerpt);
    await deps.table.transact([op]).catch((err: unknown) => {
      // The run's item is gone (expired): the ping itself is logged.
      if (!(err instanceof ConditionFailedError)) throw err;
    });
  };

  return {
    /** Records a ping: its log item (returned), or null for a plain success, stored only as its result. */
    async record(input: PingInput): Promise<PingRecord | null> {
      const { tenantId, checkId } = input;
      const run = await deps.checkService.requireRun(tenantId, checkId);
      if (run.definition.check_type !== 'push') throw new NotFoundError('check');
      if (plainSuccess(input, run)) {
        const now = deps.clock.now();
        const outcome = await deps.recorder.record({
          tenantId,
          checkId,
          success: true,
          status_code: 0,
          latency_ms: 0,
          error_message: '',
          checkedAtMs: now,
          run,
          pinged: true,
        });
        // A success with no start is a run of unknown duration: its result is that run too (the
        // runs list reads it from there, lib/push/runs/run-page.ts), so it has no run item.
        if (outcome.status !== 'gone') return null;
        // Paused or deleted since it was read: logged below as any ping to a paused check (ignored).
      }
      // The check's log keeps its last pingLogKeep pings: this one takes the next number and keeps
      // it, and the oldest ones pingLogKeep numbers back go once this one is written.
      const seq = await nextPingSeq(deps.table, checkId);
      const ping = await write(input, run, (p) => [pingRecordedOp({ ...p, seq }, input.retentionDays)]);
      await evictOldPings(deps.table, checkId, seq, deps.config.pingLogKeep).catch((err: unknown) => {
        // The ping is recorded: an older one left behind still expires with the retention.
        deps.logger.warn('an old ping was not deleted', { check_id: checkId, err });
      });
      return ping;
    },
  };
}

export type PingService = ReturnType<typeof createPingService>;
