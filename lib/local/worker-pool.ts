import type { Logger } from '../platform/logger.ts';

/**
 * Runs tasks with at most `concurrency` at a time, first in first out. A task starts
 * synchronously inside `push` when a slot is free, so its start time is the time it was handed over.
 */
export function createWorkerPool<T>(options: {
  concurrency: number;
  run(task: T): Promise<void>;
  logger: Logger;
}) {
  let waiting: T[] = [];
  let head = 0;
  let active = 0;
  let idleWaiters: (() => void)[] = [];

  const settle = () => {
    if (active > 0 || head < waiting.length) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  };

  const pump = () => {
    while (active < options.concurrency && head < waiting.length) {
      const task = waiting[head];
      if (task === undefined) break;
      head += 1;
      active += 1;
      options
        .run(task)
        .catch((err: unknown) => options.logger.error('worker task failed', { err }))
        .finally(() => {
          active -= 1;
          pump();
          settle();
        });
    }
    // Drop the consumed prefix now and then, so a long-running pool does not grow its array.
    if (head > 1024 && head * 2 > waiting.length) {
      waiting = waiting.slice(head);
      head = 0;
    }
  };

  return {
    /** Queues a task; it starts now when a worker is free. */
    push(task: T): void {
      waiting.push(task);
      pump();
    },
    /** Drops the tasks not started yet (running ones continue); returns them. */
    clear(): T[] {
      const dropped = waiting.slice(head);
      waiting = [];
      head = 0;
      settle();
      return dropped;
    },
    /** Resolves when nothing runs and nothing waits. */
    idle(): Promise<void> {
      return new Promise((resolve) => {
        idleWaiters.push(resolve);
        settle();
      });
    },
    get active(): number {
      return active;
    },
    get queued(): number {
      return waiting.length - head;
    },
  };
}
