import type { ActionJob } from '../actions/jobs.ts';
import { commitScheduleClaims } from '../actions/schedule.ts';
import type { Clock } from '../platform/clock.ts';
import type { Logger } from '../platform/logger.ts';
import type { Table } from '../store/table.ts';
import type { SqliteJobQueue } from './sqlite-job-queue.ts';
import { systemTimers, type Timers } from './timer-heap.ts';

export interface ActionScheduleDeps {
  table: Table;
  queue: Pick<SqliteJobQueue<ActionJob>, 'enqueueOps'>;
  clock: Clock;
  logger: Logger;
  dueShards: number;
  timers?: Timers;
  /** Tick period; default 1 s (a schedule's interval is at least 60 s). */
  tickMs?: number;
}

/**
 * The local schedule trigger: a tick claims the scheduled actions due in every shard of their due
 * index into the action queue (claim and job put in one transaction, see actions/schedule.ts).
 * After a downtime the first tick claims each overdue action once and moves it past now.
 */
export function createActionSchedule(deps: ActionScheduleDeps) {
  const { clock, logger } = deps;
  const timers = deps.timers ?? systemTimers;
  const tickMs = deps.tickMs ?? 1000;
  let started = false;
  let stopped = false;
  let ticking: Promise<number> | undefined;
  let loopTimer: NodeJS.Timeout | undefined;

  const runTick = async (): Promise<number> => {
    const nowMs = clock.now();
    let claimed = 0;
    for (let shard = 0; shard < deps.dueShards; shard += 1)
      claimed += await commitScheduleClaims(deps, nowMs, shard);
    if (claimed > 0) logger.debug('scheduled actions claimed', { claimed });
    return claimed;
  };

  /** One pass over the shards; a call while one runs joins it. */
  const tick = (): Promise<number> => {
    if (stopped) return Promise.resolve(0);
    ticking ??= runTick().finally(() => {
      ticking = undefined;
    });
    return ticking;
  };

  const loop = async () => {
    loopTimer = undefined;
    if (stopped) return;
    const startedMs = clock.now();
    await tick().catch((err: unknown) => logger.error('action schedule tick failed', { err }));
    if (stopped) return;
    loopTimer = timers.setTimeout(loop, Math.max(0, startedMs + tickMs - clock.now()));
  };

  return {
    tick,
    /** Starts ticking (the first tick runs at once). */
    start(): void {
      if (started || stopped) return;
      started = true;
      void loop();
    },
    /** Stops ticking and waits for a running tick. */
    async stop(): Promise<void> {
      stopped = true;
      if (loopTimer) timers.clearTimeout(loopTimer);
      await ticking?.catch(() => undefined);
    },
  };
}

export type ActionSchedule = ReturnType<typeof createActionSchedule>;
