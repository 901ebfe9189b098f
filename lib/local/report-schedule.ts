import type { Clock } from '../platform/clock.ts';
import type { Logger } from '../platform/logger.ts';
import type { ReportSender } from '../reports/compose.ts';
import { createTickLoop } from './tick-loop.ts';
import { systemTimers, type Timers } from './timer-heap.ts';

export interface ReportScheduleOptions {
  /** Between two sweeps; default 15 minutes (a report leaves within that of its period's end). */
  everyMs?: number;
  timers?: Timers;
}

/**
 * The local trigger of the report e-mails (lib/reports): a sweep at start and every `everyMs`.
 * The sweep's claims make it safe to run again at once, after a restart or alongside itself.
 */
export function createReportSchedule(
  deps: ReportScheduleOptions & { reports: ReportSender; clock: Clock; logger: Logger },
) {
  return createTickLoop({
    clock: deps.clock,
    timers: deps.timers ?? systemTimers,
    tickMs: deps.everyMs ?? 15 * 60_000,
    logger: deps.logger,
    failure: 'report sweep failed',
    runTick: async () => (await deps.reports.sweep()).sent,
  });
}

export type ReportSchedule = ReturnType<typeof createReportSchedule>;
