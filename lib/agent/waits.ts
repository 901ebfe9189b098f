/**
 * How the agent's loops wait. Between attempts (lease, results, heartbeat): exponential from
 * `baseMs`, capped at `maxMs`, with jitter between half and the whole of it (a fleet of agents
 * coming back after an outage does not knock in step), and a server's Retry-After honoured up to
 * the cap. For a change: a nudge.
 */
export interface Backoff {
  /** The wait before the next attempt after `failures` failures in a row (1 or more). */
  delayMs(failures: number, retryAfterMs?: number): number;
}

export function createBackoff(options: { baseMs: number; maxMs: number; random?: () => number }): Backoff {
  const random = options.random ?? Math.random;
  return {
    delayMs(failures, retryAfterMs) {
      const ceiling = Math.min(options.maxMs, options.baseMs * 2 ** Math.min(30, Math.max(0, failures - 1)));
      const jittered = Math.round(ceiling / 2 + (random() * ceiling) / 2);
      return retryAfterMs === undefined
        ? jittered
        : Math.min(options.maxMs, Math.max(jittered, retryAfterMs));
    },
  };
}

/** Resolves after `ms`, or at once when `signal` aborts (never rejects). */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted || ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Wakes whoever waits for a change (a result queued, a probe finished, a stop asked). */
export function createNudge() {
  let waiters: (() => void)[] = [];
  return {
    /** Resolves at the next `nudge()`, or at once when `signal` aborts (never rejects). */
    wait(signal: AbortSignal): Promise<void> {
      if (signal.aborted) return Promise.resolve();
      return new Promise((resolve) => {
        const done = () => {
          signal.removeEventListener('abort', done);
          resolve();
        };
        waiters.push(done);
        signal.addEventListener('abort', done, { once: true });
      });
    },
    nudge(): void {
      const woken = waiters;
      waiters = [];
      for (const wake of woken) wake();
    },
  };
}
