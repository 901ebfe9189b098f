import type { Clock } from '../platform/clock.ts';
import type { Logger } from '../platform/logger.ts';
import type { Timers } from './timer-heap.ts';

export interface TickLoopDeps {
  clock: Clock;
  timers: Timers;
  /** Period from the start of one tick to the start of the next. */
  tickMs: number;
  logger: Logger;
  /** Logged with a tick's failure ("scheduler tick failed"). */
  failure: string;
  /** One pass; resolves to how much it did. */
  runTick(): Promise<number>;
}

/**
 * A periodic pass on the clock and timers (fake in tests): one tick at a time (a call while one
 * runs joins it), the next one `tickMs` after the previous one started, a failed tick logged and
 * the loop kept going. The checks' scheduler and the actions' schedule both tick this way.
 */
export function createTickLoop(deps: TickLoopDeps) {
  const { clock, timers, logger } = deps;
  let stopped = false;
  let ticking: Promise<number> | undefined;
  let loopTimer: NodeJS.Timeout | undefined;

  const tick = (): Promise<number> => {
    if (stopped) return Promise.resolve(0);
    ticking ??= deps.runTick().finally(() => {
      ticking = undefined;
    });
    return ticking;
  };

  const loop = async () => {
    loopTimer = undefined;
    if (stopped) return;
    const startedMs = clock.now();
    await tick().catch((err: unknown) => logger.error(deps.failure, { err }));
    if (stopped) return;
    loopTimer = timers.setTimeout(loop, Math.max(0, startedMs + deps.tickMs - clock.now()));
  };

  return {
    /** One pass now (joins a running one). */
    tick,
    /** Starts ticking; the first tick runs at once. */
    start(): void {
      if (!stopped && loopTimer === undefined && ticking === undefined) void loop();
    },
    /** Stops ticking and waits for a running tick. */
    async stop(): Promise<void> {
      stopped = true;
      if (loopTimer) timers.clearTimeout(loopTimer);
      await ticking?.catch(() => undefined);
    },
  };
}
