import { setTimeout as sleep } from 'node:timers/promises';
import { ConflictError } from '../platform/errors.ts';

/** Returned by an attempt whose optimistic condition lost a race: read again and retry. */
export const RETRY = Symbol('retry');

/** Attempts the catalog allows an optimistic write: each round of contenders has a winner, so this covers bursts of ~10 writers. */
export const OPTIMISTIC_ATTEMPTS = 12;

/**
 * Runs `attempt` until it returns a value, at most `times` times, with a short full-jitter pause
 * (at most 5, 10, 20 ... 80 ms) between tries so contenders spread out; then the caller gets 409 CONFLICT.
 */
export async function withRetries<T>(
  times: number,
  what: string,
  attempt: () => Promise<T | typeof RETRY>,
): Promise<T> {
  for (let i = 0; i < times; i += 1) {
    if (i > 0) await sleep(Math.random() * Math.min(80, 5 * 2 ** (i - 1)));
    const result = await attempt();
    if (result !== RETRY) return result;
  }
  throw new ConflictError(`${what} changed concurrently too often; try again`);
}
