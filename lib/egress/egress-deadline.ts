import { TimeoutError } from './egress-errors.ts';

/**
 * What egress work listens to for cancellation: the part of AbortSignal it uses, so a caller's
 * AbortSignal fits, and so does the deadline's own lighter signal below.
 */
export interface CancelSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  throwIfAborted(): void;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/**
 * The signal of one deadline. Not an AbortController: creating one, and adding and removing its
 * EventTarget listeners, measured ~30 µs of CPU per probe (docs/performance.md), on a path that
 * runs thousands of times a second. Listeners run once, in the order added; like AbortSignal's,
 * a listener added after the abort never runs.
 */
class DeadlineSignal implements CancelSignal {
  aborted = false;
  reason: unknown = undefined;
  private listeners: (() => void)[] = [];

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listeners = this.listeners;
    this.listeners = [];
    for (const listener of listeners) listener();
  }

  throwIfAborted(): void {
    if (this.aborted) throw this.reason;
  }

  addEventListener(_type: 'abort', listener: () => void): void {
    if (!this.aborted) this.listeners.push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const at = this.listeners.indexOf(listener);
    if (at !== -1) this.listeners.splice(at, 1);
  }
}

/**
 * Runs `work` under one budget: the signal it receives aborts after `timeoutMs` (reason: a
 * TimeoutError) or when `parent` aborts, and the returned promise rejects at that moment even
 * if `work` ignores the signal (a getaddrinfo call cannot be cancelled). `work` should destroy
 * its sockets on abort. A parent already aborted rejects at once, without running `work`.
 */
export function withDeadline<T>(
  timeoutMs: number,
  work: (signal: CancelSignal) => Promise<T>,
  parent?: AbortSignal,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (parent?.aborted) {
      reject(parent.reason);
      return;
    }
    const signal = new DeadlineSignal();
    let timer: NodeJS.Timeout | undefined;
    const finish = () => {
      clearTimeout(timer);
      parent?.removeEventListener('abort', onParentAbort);
    };
    // The outcome is settled before the work hears of the abort (its listeners destroy sockets).
    const abort = (reason: unknown) => {
      finish();
      reject(reason);
      signal.abort(reason);
    };
    const onParentAbort = () => abort(parent?.reason);
    parent?.addEventListener('abort', onParentAbort, { once: true });
    timer = setTimeout(() => abort(new TimeoutError(timeoutMs)), timeoutMs);
    let running: Promise<T>;
    try {
      running = work(signal);
    } catch (err) {
      finish();
      reject(err);
      return;
    }
    // After an abort these settle nothing (the promise has rejected already).
    running.then(
      (value) => {
        finish();
        resolve(value);
      },
      (err: unknown) => {
        finish();
        reject(err);
      },
    );
  });
}
