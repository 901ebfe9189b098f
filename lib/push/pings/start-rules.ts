import type { HeartbeatCheck } from '../../domain/schedules.ts';
import type { Table } from '../../store/table.ts';
import type { RunFlag } from '../runs/run-items.ts';
import { earlyMessage, overlapMessage } from '../runs/run-rules.ts';
import { type OpenRun, runningRuns } from './ping-run-items.ts';

/** The flags a run keeps from its start (overlap, early), to its end or its closing. */
export const startFlags = (run: OpenRun | undefined): RunFlag[] => [
  ...(run?.overlap ? (['overlap'] as const) : []),
  ...(run?.early ? (['early'] as const) : []),
];

/** A push check's config as a /start reads its rules (lib/check-types/push/push.ts). */
type StartCheck = HeartbeatCheck & {
  config: HeartbeatCheck['config'] & { overlap?: 'allow' | 'alert' | undefined; early_seconds?: number };
};

/**
 * The rules a /start breaks (DECISIONS.md "Cron runs (wave 6)"): overlap: alert (another run is
 * running: read from its open runs) and early_seconds (a scheduled run starting that long before
 * its time), as one failure's words and the flags its run keeps; undefined when it breaks none.
 */
export async function startBreaches(
  table: Table,
  checkId: string,
  check: StartCheck,
  nowMs: number,
): Promise<{ message: string; flags: RunFlag[] } | undefined> {
  const other =
    check.config.overlap === 'alert' ? (await runningRuns(table, checkId, check, nowMs))[0] : undefined;
  const early = earlyMessage(nowMs, check.config);
  const told = [
    ...(other ? [{ message: overlapMessage(other.startedAtMs, nowMs), flag: 'overlap' as const }] : []),
    ...(early ? [{ message: early, flag: 'early' as const }] : []),
  ];
  if (told.length === 0) return undefined;
  return { message: told.map((t) => t.message).join('; '), flags: told.map((t) => t.flag) };
}
