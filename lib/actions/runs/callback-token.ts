import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { ACTION_LIMITS } from '../items/action-items.ts';
import type { ExecutionRecord } from '../items/execution-items.ts';

/**
 * The scoped callback token of one execution (DECISIONS.md "Actions"): `vcb_<execution id>_<40
 * base62>`, sent as `Authorization: Bearer <token>` to that execution's events endpoint only, for
 * 24 hours. The execution id inside lets the endpoint find the record without a tenant key; only
 * the token's SHA-256 is stored, so a leaked table does not hand out write access.
 */

const TOKEN_PREFIX = 'vcb_';
const RANDOM_LENGTH = 40;
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const TOKEN_PATTERN = /^vcb_(exe_[0-9A-Z]{26})_[0-9A-Za-z]{32,64}$/;

function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 4 * 62: reject the top bytes so every character is equally likely.
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

function sha256Hex(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A new callback token for `executionId`, its SHA-256 hex (stored) and its expiry (ISO time). */
export function newCallbackToken(
  executionId: string,
  nowMs: number = Date.now(),
): { token: string; hash: string; expiresAt: string } {
  const token = `${TOKEN_PREFIX}${executionId}_${randomBase62(RANDOM_LENGTH)}`;
  const expiresAt = new Date(nowMs + ACTION_LIMITS.callbackTokenSeconds * 1000).toISOString();
  return { token, hash: sha256Hex(token), expiresAt };
}

/** The execution id a callback token names, or undefined when it is not a callback token. */
export function executionIdOfToken(token: string): string | undefined {
  return TOKEN_PATTERN.exec(token)?.[1];
}

/**
 * Whether `token` authorises events for `execution` at `nowMs`: it names this execution, its hash
 * matches the stored one (compared in constant time) and it has not expired.
 */
export function verifyCallbackToken(
  token: string,
  execution: Pick<ExecutionRecord, 'id' | 'callback_token_hash' | 'callback_expires_at'>,
  nowMs: number,
): boolean {
  if (executionIdOfToken(token) !== execution.id) return false;
  const stored = execution.callback_token_hash;
  const expires = execution.callback_expires_at;
  if (stored === null || expires === null) return false;
  const expiresMs = Date.parse(expires);
  if (!Number.isFinite(expiresMs) || nowMs >= expiresMs) return false;
  const left = Buffer.from(sha256Hex(token), 'hex');
  const right = Buffer.from(stored, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
