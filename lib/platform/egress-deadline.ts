import { TimeoutError } from './egress-errors.ts';

/**
 * Runs `work` under one budget: the signal it receives aborts after `timeoutMs` (reason: a
 * TimeoutError) or when `parent` aborts, and the returned promise rejects at that moment even
 * if `work` ignores the signal (a getaddrinfo call cannot be cancelled). `work` should destroy
 * its sockets on abort.
 */
export async function withDeadline<T>(
  timeoutMs: number,
  work: (signal: AbortSignal) => Promise<T>,
  parent?: AbortSignal,
): Promise<T> {
  const controller = new AbortController();
  const { signal } = controller;
  const onParentAbort = () => controller.abort(parent?.reason);
  if (parent?.aborted) onParentAbort();
  else parent?.addEventListener('abort', onParentAbort, { once: true });
  const timer = setTimeout(() => controller.abort(new TimeoutError(timeoutMs)), timeoutMs);
  let onAbort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work(signal), aborted]);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
    parent?.removeEventListener('abort', onParentAbort);
  }
}
