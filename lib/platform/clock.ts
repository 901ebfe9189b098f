/** Time as a port, so tests can drive it. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock tests move by hand. */
export function createFakeClock(startMs = Date.parse('2026-01-01T00:00:00.000Z')): Clock & {
  advance(ms: number): void;
  set(ms: number): void;
} {
  let current = startMs;
  return {
    now: () => current,
    advance: (ms) => {
      current += ms;
    },
    set: (ms) => {
      current = ms;
    },
  };
}

/** Formatting a time is a pure rule (lib/domain/formats/iso-time.ts); the clock hands it on. */
export { isoTime } from '../domain/formats.ts';
