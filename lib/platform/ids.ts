import { hash, randomFillSync } from 'node:crypto';
import { monotonicFactory } from 'ulid';
import { type Clock, isoTime } from './clock.ts';

export type IdPrefix =
  | 'tnt'
  | 'usr'
  | 'inv'
  | 'key'
  | 'bp'
  | 'ent'
  | 'rel'
  | 'chk'
  | 'res'
  | 'trn'
  | 'pol'
  | 'chn'
  | 'dlv'
  | 'act'
  | 'exe'
  | 'skl'
  | 'ptk'
  | 'cel'
  | 'mnt'
  | 'req'
  | 'rte'
  | 'dig'
  | 'png'
  | 'loc'
  | 'lky'
  | 'ocl'
  | 'ogr'
  | 'oar'
  | 'aud'
  | 'ses'
  | 'icf'
  | 'ich'
  | 'pin'
  | 'piu'
  | 'sch'
  | 'lyr'
  | 'ovr'
  | 'cmt'
  | 'team'
  | 'esp'
  | 'int'
  | 'oal'
  | 'run';

/**
 * Crypto-random bytes drawn from a pool refilled 4 KiB at a time: the library's default draws
 * one getRandomValues call per character (16 per id), a visible cost on the result path.
 */
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;
function pooledRandom(): number {
  if (poolOffset >= pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const byte = pool[poolOffset] ?? 0;
  poolOffset += 1;
  return byte / 256;
}

let nextUlid = monotonicFactory(pooledRandom);

/**
 * Forgets the last time the factory issued (ids stay monotonic from then on): for test files that
 * share one module graph (the unit tier, vitest.config.ts), so one file's fake clock does not date
 * the next file's ids.
 */
export function resetIdClock(): void {
  nextUlid = monotonicFactory(pooledRandom);
}

/** A new prefixed, time-sortable id such as `ent_01J9Z3...`. */
export function newId(prefix: IdPrefix, nowMs: number = Date.now()): string {
  return `${prefix}_${nextUlid(nowMs)}`;
}

/**
 * A new record's id and creation time from one reading of the clock: `now` in milliseconds and `at`
 * as records store it (ISO 8601).
 */
export function newRecordStamp(prefix: IdPrefix, clock: Clock): { id: string; now: number; at: string } {
  const now = clock.now();
  return { id: newId(prefix, now), now, at: isoTime(now) };
}

/** True when `value` looks like an id with the given prefix (cheap shape check before a lookup). */
export function isId(prefix: IdPrefix, value: string): boolean {
  return new RegExp(`^${prefix}_[0-9A-HJKMNP-TV-Z]{26}$`).test(value);
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A prefixed ULID-shaped id that is the same every time for the same time and seed, so a retried
 * write of the same logical record (a probe slot, a redelivered message) collides instead of duplicating.
 */
export function deterministicId(prefix: IdPrefix, timeMs: number, seed: string): string {
  let time = '';
  let rest = Math.max(0, Math.floor(timeMs));
  for (let i = 0; i < 10; i += 1) {
    time = CROCKFORD[rest % 32] + time;
    rest = Math.floor(rest / 32);
  }
  const digest = hash('sha256', seed, 'buffer');
  let random = '';
  for (let i = 0; i < 16; i += 1) random += CROCKFORD[(digest[i] ?? 0) % 32];
  return `${prefix}_${time}${random}`;
}
