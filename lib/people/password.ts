import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { RateLimitedError } from '../platform/errors.ts';

/**
 * Password hashing (docs/auth.md "Signing in with a password"). scrypt, not argon2id: scrypt is
 * built into Node (no native module to build for each runtime and the Lambda bundle), it is
 * memory-hard, and OWASP's Password Storage Cheat Sheet lists it with these parameters
 * (N=2^17, r=8, p=1: 128 MiB and a few hundred milliseconds per hash). A hash is stored as
 * `scrypt$N$r$p$salt$hash` (salt and hash base64url), so verifying reads the parameters from the
 * stored text and they can be raised later without breaking older hashes.
 */

const COST = 2 ** 17;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const SALT_BYTES = 16;
const KEY_BYTES = 32;
/** Node's default (32 MiB) is below what N=2^17, r=8 needs (128 MiB). */
const MAX_MEMORY = 256 * 1024 * 1024;
/** Stored parameters are bounded too: a corrupt item must not make one verify take minutes. */
const MAX_COST = 2 ** 20;

interface Params {
  N: number;
  r: number;
  p: number;
}

/**
 * Hashes at once per process (each holds 128 MiB and a core for a few hundred milliseconds) and
 * hashes that may wait for one: past both, a sign-in is answered 429 at once instead of queueing
 * without bound, so a flood of sign-ins costs bounded memory and time and leaves the other cores
 * (and libuv's pool) to everything else.
 */
const MAX_RUNNING = 1;
const MAX_WAITING = 1;
let running = 0;
const waiting: Array<() => void> = [];

async function bounded<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_RUNNING) {
    if (waiting.length >= MAX_WAITING)
      throw new RateLimitedError(1, { message: 'too many sign-ins at once: try again in a moment' });
    await new Promise<void>((resolve) => waiting.push(resolve));
  } else running += 1;
  try {
    return await work();
  } finally {
    // The slot passes to the next waiter as it is; none waiting, it is freed.
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }
}

function derive(password: string, salt: Buffer, keyBytes: number, params: Params): Promise<Buffer> {
  return bounded(() => scryptAsync(password, salt, keyBytes, params));
}

function scryptAsync(password: string, salt: Buffer, keyBytes: number, params: Params): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, keyBytes, { ...params, maxmem: MAX_MEMORY }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

/** The stored form of a new password: a fresh random salt each time. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const params = { N: COST, r: BLOCK_SIZE, p: PARALLELISM };
  const key = await derive(password, salt, KEY_BYTES, params);
  return [
    'scrypt',
    COST,
    BLOCK_SIZE,
    PARALLELISM,
    salt.toString('base64url'),
    key.toString('base64url'),
  ].join('$');
}

function parseStored(stored: string): { params: Params; salt: Buffer; key: Buffer } | undefined {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return undefined;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const validCost = Number.isInteger(N) && N > 1 && N <= MAX_COST && (N & (N - 1)) === 0;
  if (!validCost || !Number.isInteger(r) || r < 1 || r > 32 || !Number.isInteger(p) || p < 1 || p > 16)
    return undefined;
  const salt = Buffer.from(parts[4] ?? '', 'base64url');
  const key = Buffer.from(parts[5] ?? '', 'base64url');
  if (salt.length < 8 || key.length < 16 || key.length > 64) return undefined;
  return { params: { N, r, p }, salt, key };
}

/** Whether `password` is the one `stored` was made from (constant-time compare); false for a malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseStored(stored);
  if (!parsed) return false;
  const key = await derive(password, parsed.salt, parsed.key.length, parsed.params);
  return timingSafeEqual(key, parsed.key);
}

/**
 * A hash of no one's password: a sign-in with an unknown e-mail verifies against it, so it costs
 * the same work as a wrong password and the answer's timing does not tell which it was.
 */
export const DUMMY_PASSWORD_HASH =
  'scrypt$131072$8$1$wZB8aNcsoz02uTBU5F_QTA$1qsVBZ9BTzFeskTMHNYKptH5O9ysKE2g9aKZkpCkm4c';
