import {
  type HeartbeatCheck,
  type HeartbeatState,
  type MissedRun,
  runAllowanceMs,
} from '../../domain/schedules.ts';
import { isoTime } from '../../platform/clock.ts';
import type { Table, WriteOp } from '../../store/table.ts';
import { newRunId, type RunFlag, runWrittenOp } from '../runs/run-items.ts';
import { MAX_RUN_MS, type OpenRun, openRuns, runEndedOp } from './ping-run-items.ts';
import { startFlags } from './start-rules.ts';

/**
 * What the dead man's switch writes of a push check's runs when a deadline passes (DECISIONS.md
 * "Cron runs (wave 6)"), in the transaction of its synthetic failure, so no run is left open
 * forever: the started run it told hung, too long or unfinished is closed `hung` (flagged `hung`,
 * and `too_long` past max_duration_seconds; it never reported an end, so `ended_at` and
 * `duration_ms` stay null), and so is every other open run past the time a started run may take
 * or its max_duration_seconds; its open-run pointer goes, so a late end of it is a run of unknown
 * duration. A late deadline with no run running is a `missed` run: an expected run that never
 * started (ended_at: the deadline).
 */

interface DeadmanRunsInput {
  check: HeartbeatCheck & { id: string };
  state: HeartbeatState;
  miss: Pick<MissedRun, 'reason' | 'endsRun'>;
  /** The deadline that passed. */
  slotMs: number;
  retentionDays: number;
}

/** When an open run other than the state's is past saving: its allowance or max_duration_seconds. */
function overdueAtMs(check: HeartbeatCheck, run: OpenRun): number {
  const max = check.config.max_duration_seconds;
  const allowance = Math.min(runAllowanceMs(check), max !== undefined ? max * 1000 : MAX_RUN_MS, MAX_RUN_MS);
  return run.startedAtMs + allowance;
}

export async function deadmanRunOps(table: Table, input: DeadmanRunsInput): Promise<WriteOp[]> {
  const { check, state, miss, slotMs } = input;
  const stateStart = state.run_started_at ? Date.parse(state.run_started_at) : null;
  const open = await openRuns(table, check.id);
  const ops: WriteOp[] = [];
  let running = false;
  for (const run of open) {
    const told = miss.endsRun && run.startedAtMs === stateStart;
    if (!told && overdueAtMs(check, run) > slotMs) {
      running = true;
      continue;
    }
    const flags: RunFlag[] = [
      ...startFlags(run),
      'hung',
      ...(told && miss.reason === 'too_long' ? (['too_long'] as const) : []),
    ];
    ops.push(
      runEndedOp(run),
      runWrittenOp(
        {
          id: run.runId ?? newRunId(run.startedAtMs),
          check_id: check.id,
          started_at: isoTime(run.startedAtMs),
          ended_at: null,
          duration_ms: null,
          outcome: 'hung',
          ...(run.rid ? { rid: run.rid } : {}),
          flags,
        },
        input.retentionDays,
      ),
    );
  }
  if (miss.reason === 'late' && !running) {
    ops.push(
      runWrittenOp(
        {
          id: newRunId(slotMs),
          check_id: check.id,
          started_at: null,
          ended_at: isoTime(slotMs),
          duration_ms: null,
          outcome: 'missed',
          flags: [],
        },
        input.retentionDays,
      ),
    );
  }
  return ops;
}
