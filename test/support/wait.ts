/**
 * Options for `vi.waitFor`: the same 10 s bound as `expect.poll` (vitest.config.ts). Its own default,
 * 1 s, is too short on a loaded CI machine; the wait ends as soon as the callback passes, so the
 * longer bound costs nothing when all is well. (The interval stays vitest's: under fake timers each
 * try also advances them by it.)
 */
export const WAIT = { timeout: 10_000 } as const;
