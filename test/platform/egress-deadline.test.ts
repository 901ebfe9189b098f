import { getEventListeners } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { withDeadline } from '../../lib/egress/egress-deadline.ts';
import { TimeoutError } from '../../lib/egress/egress-errors.ts';

describe('withDeadline', () => {
  it("resolves with the work's value and leaves no timer behind", async () => {
    vi.useFakeTimers();
    try {
      await expect(withDeadline(1000, async () => 42)).resolves.toBe(42);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it("passes the work's failure through, thrown or rejected", async () => {
    const boom = new Error('boom');
    await expect(withDeadline(1000, () => Promise.reject(boom))).rejects.toBe(boom);
    await expect(
      withDeadline(1000, () => {
        throw boom;
      }),
    ).rejects.toBe(boom);
  });

  it('rejects at the deadline even when the work ignores its signal, and aborts the signal once', async () => {
    vi.useFakeTimers();
    try {
      const heard: unknown[] = [];
      let seen: { aborted: boolean; reason: unknown } | undefined;
      const pending = withDeadline(500, (signal) => {
        seen = signal;
        signal.addEventListener('abort', () => heard.push(signal.reason), { once: true });
        return new Promise<never>(() => undefined);
      });
      const outcome = expect(pending).rejects.toBeInstanceOf(TimeoutError);
      await vi.advanceTimersByTimeAsync(499);
      expect(seen?.aborted).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await outcome;
      await expect(pending).rejects.toThrow('timed out after 500 ms');
      expect(seen?.aborted).toBe(true);
      expect(heard).toHaveLength(1);
      expect(heard[0]).toBeInstanceOf(TimeoutError);
    } finally {
      vi.useRealTimers();
    }
  });

  it('runs no listener removed before the abort, nor one added after it', async () => {
    vi.useFakeTimers();
    try {
      const calls: string[] = [];
      const pending = withDeadline(100, (signal) => {
        const removed = () => calls.push('removed');
        signal.addEventListener('abort', removed);
        signal.addEventListener('abort', () => calls.push('kept'));
        signal.removeEventListener('abort', removed);
        return new Promise<never>((_, reject) =>
          signal.addEventListener('abort', () => {
            signal.addEventListener('abort', () => calls.push('late'));
            reject(signal.reason);
          }),
        );
      });
      const outcome = expect(pending).rejects.toBeInstanceOf(TimeoutError);
      await vi.advanceTimersByTimeAsync(100);
      await outcome;
      expect(calls).toEqual(['kept']);
    } finally {
      vi.useRealTimers();
    }
  });

  it("follows the parent's abort, and leaves no listener on the parent either way", async () => {
    const parent = new AbortController();
    const reason = new Error('caller gave up');
    let aborted = false;
    const pending = withDeadline(
      10_000,
      (signal) =>
        new Promise<never>(() => {
          signal.addEventListener('abort', () => {
            aborted = true;
          });
        }),
      parent.signal,
    );
    expect(getEventListeners(parent.signal, 'abort')).toHaveLength(1);
    parent.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(aborted).toBe(true);
    expect(getEventListeners(parent.signal, 'abort')).toHaveLength(0);

    const other = new AbortController();
    await expect(withDeadline(10_000, async () => 'done', other.signal)).resolves.toBe('done');
    expect(getEventListeners(other.signal, 'abort')).toHaveLength(0);
  });

  it('does not run the work when the parent has aborted already', async () => {
    const reason = new Error('already');
    const work = vi.fn(async () => 1);
    await expect(withDeadline(1000, work, AbortSignal.abort(reason))).rejects.toBe(reason);
    expect(work).not.toHaveBeenCalled();
  });

  it('lets the work check the deadline itself', async () => {
    vi.useFakeTimers();
    try {
      let check: (() => void) | undefined;
      const pending = withDeadline(50, (signal) => {
        check = () => signal.throwIfAborted();
        return new Promise<never>(() => undefined);
      });
      const outcome = expect(pending).rejects.toBeInstanceOf(TimeoutError);
      expect(() => check?.()).not.toThrow();
      await vi.advanceTimersByTimeAsync(50);
      await outcome;
      expect(() => check?.()).toThrow(TimeoutError);
    } finally {
      vi.useRealTimers();
    }
  });
});
