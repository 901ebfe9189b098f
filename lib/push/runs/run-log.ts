import type { CheckService } from '../../checks/services.ts';
import type { Principal } from '../../domain/principal.ts';
import { pushDeadline } from '../../domain/schedules.ts';
import type { Clock } from '../../platform/clock.ts';
import { ConflictError } from '../../platform/errors.ts';
import type { CursorSeal } from '../../store/cursor-seal.ts';
import { type PageRequest, unexpired } from '../../store/paging.ts';
import type { Table } from '../../store/table.ts';
import { redactPingBody } from '../log/ping-redaction.ts';
import type { RunFlag, RunOutcome, RunRecord } from './run-items.ts';
import { learnedNormal } from './run-normal.ts';
import { readRunsPage } from './run-page.ts';

/**
 * Reading a push check's runs (GET /v1/checks/{id}/runs): newest first (by start, or end for a run
 * with no start; its run items and its plain successes merged, run-page.ts), in pages with sealed
 * cursors, expired runs left out. The check is resolved in
 * the caller's tenant (404 otherwise); a pull check has no runs (409, as it has no ping log). A run
 * still `running` past the time a started run may take, its max_duration_seconds (flagged
 * too_long too) or silent past its keepalive_seconds (its deadline, as the dead man's switch reads
 * it), is shown `hung`, flagged so, until the switch closes it so (pings/run-closing.ts): a run
 * that never ends is never shown open forever. Read-only principals get excerpts redacted as ping bodies are.
 */

export const RUN_PAGE_MAX = 100;
export const RUN_PAGE_DEFAULT = 20;

interface PublicRun {
  id: string;
  started_at: string | null;
  ended_at: string | null;
  duration_ms: number | null;
  outcome: RunOutcome;
  exit_status?: number;
  rid?: string;
  log_excerpt?: string;
  flags: RunFlag[];
}

export interface RunLogDeps {
  table: Table;
  cursors: CursorSeal;
  checkService: Pick<CheckService, 'requireCheck'>;
  clock: Clock;
}

type PushCheck = { interval_seconds: number; config: Parameters<typeof pushDeadline>[0]['config'] };

/** A run's flags once it is hung (and too long, past max_duration_seconds). */
const hungFlags = (flags: RunFlag[], tooLong: boolean): RunFlag[] => {
  const added: RunFlag[] = tooLong ? ['hung', 'too_long'] : ['hung'];
  return [...flags, ...added.filter((flag) => !flags.includes(flag))];
};

/** The run as the API shows it at `nowMs`. */
function publicRun(run: RunRecord, check: PushCheck, nowMs: number, readOnly: boolean): PublicRun {
  const deadline =
    run.outcome === 'running'
      ? pushDeadline(check, { run_started_at: run.started_at, run_seen_at: run.seen_at })
      : null;
  const hung = deadline !== null && deadline.atMs <= nowMs;
  return {
    id: run.id,
    started_at: run.started_at,
    ended_at: run.ended_at,
    duration_ms: run.duration_ms,
    outcome: hung ? 'hung' : run.outcome,
    ...(run.exit_status !== undefined ? { exit_status: run.exit_status } : {}),
    ...(run.rid !== undefined ? { rid: run.rid } : {}),
    ...(run.log_excerpt !== undefined
      ? { log_excerpt: readOnly ? redactPingBody(run.log_excerpt) : run.log_excerpt }
      : {}),
    flags: hung ? hungFlags(run.flags, deadline.reason === 'too_long') : run.flags,
  };
}

const rounded = (n: number) => Math.round(n);

export function createRunLogService(deps: RunLogDeps) {
  /** The push check `checkId` of the caller's tenant: 404 in another tenant, 409 for a pull check. */
  const requirePushCheck = async (tenantId: string, checkId: string) => {
    const check = await deps.checkService.requireCheck(tenantId, checkId);
    if (check.check_type !== 'push') {
      throw new ConflictError('only push checks have runs: the service runs this check itself');
    }
    return check;
  };

  return {
    /**
     * The check's learned normal (DECISIONS.md "Cron runs (wave 6)"): its quantiles, and whether it
     * flags runs (20 runs seen, and not turned off with `learn: false`).
     */
    async normal(caller: Pick<Principal, 'tenantId'>, checkId: string) {
      const check = await requirePushCheck(caller.tenantId, checkId);
      const normal = await learnedNormal(deps.table, checkId, check.config.schedule);
      const { duration, start_offset } = normal;
      return {
        runs_seen: normal.runs_seen,
        duration: duration
          ? { p5_ms: rounded(duration.p5), p50_ms: rounded(duration.p50), p95_ms: rounded(duration.p95) }
          : null,
        start_offset: start_offset
          ? {
              p5_s: rounded(start_offset.p5),
              p50_s: rounded(start_offset.p50),
              p95_s: rounded(start_offset.p95),
            }
          : null,
        active: normal.active && check.config.learn !== false,
      };
    },

    /** A page of the check's runs, newest first. */
    async page(caller: Pick<Principal, 'tenantId' | 'readOnly'>, checkId: string, page: PageRequest) {
      const check = await requirePushCheck(caller.tenantId, checkId);
      const now = deps.clock.now();
      const found = await readRunsPage(deps, checkId, page, unexpired(now));
      const shape = { interval_seconds: check.interval_seconds, config: check.config };
      return {
        runs: found.runs.map((run) => publicRun(run, shape, now, caller.readOnly)),
        next_cursor: found.nextCursor,
      };
    },
  };
}

export type RunLogService = ReturnType<typeof createRunLogService>;
