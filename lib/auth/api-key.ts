import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  API_KEY_ALPHABET,
  API_KEY_PREFIX,
  API_KEY_RANDOM_LENGTH,
  apiKeyChecksum,
} from '../domain/formats.ts';

/**
 * Making and hashing API keys; the format rule itself is in lib/domain/formats/api-key-format.ts. Only the
 * SHA-256 hash of a key is ever stored.
 */

/** `length` uniformly random base62 characters (the random part of keys and tokens). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 4 * 62: reject the top bytes so every character is equally likely.
      if (byte < 248 && out.length < length) out += API_KEY_ALPHABET[byte % 62];
    }
  }
  return out;
}

/** A new raw API key. */
export function generateApiKey(): string {
  const random = randomBase62(API_KEY_RANDOM_LENGTH);
  return `${API_KEY_PREFIX}${random}${apiKeyChecksum(random)}`;
}

/** SHA-256 hex of the raw key: the only form that is stored. */
export function hashApiKey(raw: string): string {
  return createHash('sha256').update(raw, 'utf8').digest('hex');
}

/** The displayable prefix of a key (first 12 characters). */
export function keyPrefix(raw: string): string {
  return raw.slice(0, 12);
}

/** Constant-time comparison of two hex digests. */
export function sameDigest(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** A random opaque token (invitations) and its hash. */
export function generateToken(): { token: string; hash: string } {
  const token = `vgi_${randomBase62(40)}`;
  return { token, hash: hashApiKey(token) };
}
