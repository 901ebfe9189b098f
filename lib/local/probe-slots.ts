import type { ProbeJob } from '../checks/probe-job.ts';
import type { Logger } from '../platform/logger.ts';
import type { Prober } from '../probes/types.ts';

/** Reported when a worker starts a job (the benchmark measures lateness as startedMs - dueMs). */
export interface JobStart {
  dueMs: number;
  startedMs: number;
  /** The check's job; a cell member's is a 'probe' job of its check at the cell's slot. */
  job: ProbeJob;
}

/**
 * The local scheduler's bound on probes in flight (config.workerConcurrency): a probe takes a
 * slot before it starts and gives it back when it answers, waiters first in first out. Per-check
 * jobs and cell members share it, so a cell job of 100 members probes as many at once as 100
 * per-check jobs would, however few jobs run (see scheduler.ts).
 */
export function createProbeSlots(limit: number) {
  let active = 0;
  // A queue read from `head`: a cell tick makes ~100 waiters per cell, 10,000 and more at the
  // maximum rate, and Array#shift on an array that long copies it (measured: 11 % of the event
  // loop's CPU in the hand-off). The consumed front is dropped in one splice now and then.
  let waiters: (() => void)[] = [];
  let head = 0;

  const acquire = (): Promise<void> => {
    if (active < limit) {
      active += 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => waiters.push(resolve));
  };

  /** A freed slot passes straight to the first waiter (active stays), else it is free. */
  const release = (): void => {
    if (head < waiters.length) {
      const next = waiters[head] as () => void;
      head += 1;
      if (head === waiters.length) {
        waiters = [];
        head = 0;
      } else if (head >= 1024 && head * 2 >= waiters.length) {
        waiters = waiters.slice(head);
        head = 0;
      }
      next();
    } else active -= 1;
  };

  return {
    /** `prober` taking a slot for each probe; `started` runs once it holds one (before the probe). */
    bounded(prober: Prober, started?: () => void): Prober {
      return async (definition) => {
        await acquire();
        try {
          started?.();
          return await prober(definition);
        } finally {
          release();
        }
      };
    },
    /** Probes running. */
    get active(): number {
      return active;
    },
    /** Probes waiting for a slot. */
    get waiting(): number {
      return waiters.length - head;
    },
  };
}

export type ProbeSlots = ReturnType<typeof createProbeSlots>;

/** Calls a benchmark/test hook; a hook that throws is logged, never fails the job. */
export function callHook(
  hook: ((start: JobStart) => void) | undefined,
  start: JobStart,
  logger: Logger,
  name: string,
): void {
  if (!hook) return;
  try {
    hook(start);
  } catch (err) {
    logger.warn(`${name} hook failed`, { err });
  }
}
