import { type ResultRecorder, recordPushStart } from '../../checks/probing.ts';
import type { CheckService, CheckStore } from '../../checks/services.ts';

import type { Clock } from '../../platform/clock.ts';
import { NotFoundError } from '../../platform/errors.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Table, WriteOp } from '../../store/table.ts';
import { evictOldPings, newPing, nextPingSeq, type PingRecord, pingRecordedOp } from '../log/ping-items.ts';
import type { PingAction } from './ping-request.ts';
import { MAX_RUN_MS, type OpenRun, openRun, runEndedOp, runStartedOp } from './ping-run-items.ts';

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
  /** The body was cut because the tenant's ping body budget was spent. */
  bodyOverBudget?: boolean | undefined;
  method: string;
  sourceIp: string;
  userAgent: string;
  /** The tenant's retention: the ping's log item expires with it. */
  retentionDays: number;
}

/** The message of a failure reported on /fail (as the ping URLs always said). */
const FAIL_MESSAGE = 'failure reported to the ping URL';

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/**
 * A plain success: a success with no body, no run id, to an enabled check with no run started.
 * It is recorded as its result only (marked `pinged`), with no ping log item and no ping number:
 * the log keeps what a user reads there (bodies, starts, fails, exit statuses, logs, runs,
 * ignored pings) and the results list every success (issue 58: one copy of each success).
 */
function plainSuccess(
  input: PingInput,
  run: { definition: { enabled: boolean }; state: { run_started_at?: string | null | undefined } },
): boolean {
  return (
    input.kind === 'success' &&
    input.body === '' &&
    !input.bodyTruncated &&
    !input.bodyOverBudget &&
    input.rid === undefined &&
    run.definition.enabled &&
    !run.state.run_started_at
  );
}

/**
 * Records pings (Healthchecks' Pinging API, DECISIONS.md "Heartbeats"): each logged ping's item is
 * written in the same transaction as what it records; a plain success (above) is only its result. A success, /fail or /<exit status> is a
 * result (its run's duration, from the start of the same run id, is the result's latency_ms, and a
 * success slower than max_duration_seconds is degraded); a /start keeps the run's start on the
 * check's state and as an open run; a /log is only a log item. A disabled (paused) check keeps
 * every ping and changes nothing, as Healthchecks does for a paused check with manual resume: the
 * ping is answered OK and logged as ignored (Vigil never enables a check because of a ping).
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
    if (input.kind === 'log') {
      const ping = newPing(base, now);
      await logged(ping);
      return ping;
    }
    if (!run.definition.enabled) return ignored();

    if (input.kind === 'start') {
      const ping = newPing(base, now);
      const started = await recordPushStart(
        { table: deps.table, checks: deps.checks, dueShards: deps.config.dueShards },
        {
          tenantId,
          checkId,
          startedAtMs: now,
          run,
          alsoCommit: [
            ...log(ping),
            runStartedOp({ checkId, rid: input.rid, startedAtMs: now, pingId: ping.id }),
          ],
        },
      );
      return started.status === 'started' ? ping : ignored();
    }

    // An end: its run is the open start of the same run id. Without a run id, only a check whose
    // state shows a run started reads it (most pings are plain successes: no read for them).
    const open: OpenRun | undefined =
      input.rid !== undefined || run.state.run_started_at
        ? await openRun(deps.table, checkId, input.rid)
        : undefined;
    const elapsed = open ? now - open.startedAtMs : undefined;
    const durationMs = elapsed !== undefined && elapsed >= 0 && elapsed < MAX_RUN_MS ? elapsed : undefined;
    const success = input.kind === 'success' || (input.kind === 'exit' && input.exitStatus === 0);
    const config = run.definition.check_type === 'push' ? run.definition.config : {};
    const maxMs = config.max_duration_seconds !== undefined ? config.max_duration_seconds * 1000 : undefined;
    const degraded = success && durationMs !== undefined && maxMs !== undefined && durationMs > maxMs;
    let message = '';
    if (input.kind === 'fail') message = FAIL_MESSAGE;
    else if (!success) message = `exit status ${input.exitStatus}`;
    else if (degraded) {
      message = `the run took ${seconds(durationMs)}, longer than max_duration_seconds (${config.max_duration_seconds} s)`;
    }
    const ping = newPing({ ...base, ...(durationMs !== undefined ? { duration_ms: durationMs } : {}) }, now);
    const outcome = await deps.recorder.record({
      tenantId,
      checkId,
      success,
      ...(degraded ? { degraded: true } : {}),
      status_code: 0,
      latency_ms: durationMs ?? 0,
      error_message: message,
      checkedAtMs: now,
      run,
      // The end closes its run: a second end of the same run id finds no start to pair with.
      alsoCommit: [...log(ping), ...(open ? [runEndedOp(open)] : [])],
    });
    if (outcome.status === 'gone') return ignored();
    return ping;
  };

  return {
    /** Records a ping: its log item (returned), or null for a plain success, stored only as its result. */
    async record(input: PingInput): Promise<PingRecord | null> {
      const { tenantId, checkId } = input;
      const run = await deps.checkService.requireRun(tenantId, checkId);
      if (run.definition.check_type !== 'push') throw new NotFoundError('check');
      if (plainSuccess(input, run)) {
        const outcome = await deps.recorder.record({
          tenantId,
          checkId,
          success: true,
          status_code: 0,
          latency_ms: 0,
          error_message: '',
          checkedAtMs: deps.clock.now(),
          run,
          pinged: true,
        });
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
