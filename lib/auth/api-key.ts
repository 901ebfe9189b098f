import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * API key format (DECISIONS.md): `vgl_` + 32 random base62 characters + a 6-character base62
 * checksum (CRC32 of the random part), so leaked keys are recognisable by scanners and typos are
 * rejected without a database lookup. Only the SHA-256 hash is ever stored.
 */

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const PREFIX = 'vgl_';
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const KEY_PATTERN = /^vgl_[0-9A-Za-z]{38}$/;

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(text: string): number {
  let crc = 0xffffffff;
  for (const byte of Buffer.from(text, 'utf8')) crc = (crcTable[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function base62(value: number, width: number): string {
  let out = '';
  let rest = value;
  while (rest > 0) {
    out = ALPHABET[rest % 62] + out;
    rest = Math.floor(rest / 62);
  }
  return out.padStart(width, '0');
}

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

/** A new raw API key. */
export function generateApiKey(): string {
  const random = randomBase62(RANDOM_LENGTH);
  return `${PREFIX}${random}${base62(crc32(random), CHECKSUM_LENGTH)}`;
}

/** True when `raw` has the key shape and a matching checksum. */
export function isWellFormedApiKey(raw: string): boolean {
  if (!KEY_PATTERN.test(raw)) return false;
  const random = raw.slice(PREFIX.length, PREFIX.length + RANDOM_LENGTH);
  const checksum = raw.slice(PREFIX.length + RANDOM_LENGTH);
  return base62(crc32(random), CHECKSUM_LENGTH) === checksum;
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
