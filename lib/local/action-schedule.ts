import type { ActionJob } from '../actions/jobs.ts';
import { commitScheduleClaims } from '../actions/schedule.ts';
import type { Clock } from '../platform/clock.ts';
import type { Logger } from '../platform/logger.ts';
import type { Table } from '../store/table.ts';
import type { SqliteJobQueue } from './sqlite-job-queue.ts';
import { createTickLoop } from './tick-loop.ts';
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

  const runTick = async (): Promise<number> => {
    const nowMs = clock.now();
    let claimed = 0;
    for (let shard = 0; shard < deps.dueShards; shard += 1)
      claimed += await commitScheduleClaims(deps, nowMs, shard);
    if (claimed > 0) logger.debug('scheduled actions claimed', { claimed });
    return claimed;
  };
  const loop = createTickLoop({
    clock,
    timers,
    tickMs,
    logger,
    failure: 'action schedule tick failed',
    runTick,
  });

  return {
    /** One pass over the shards; a call while one runs joins it. */
    tick: loop.tick,
    /** Starts ticking (the first tick runs at once). */
    start(): void {
      if (started || stopped) return;
      started = true;
      loop.start();
    },
    /** Stops ticking and waits for a running tick. */
    async stop(): Promise<void> {
      stopped = true;
      await loop.stop();
    },
  };
}

export type ActionSchedule = ReturnType<typeof createActionSchedule>;
