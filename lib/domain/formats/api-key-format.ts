/**
 * The API key format (DECISIONS.md): `vgl_` + 32 random base62 characters + a 6-character base62
 * checksum (CRC32 of the random part), so leaked keys are recognisable by scanners and typos are
 * rejected without a database lookup. Pure, so configuration and auth can both apply the rule.
 */

/** The characters of a key's random part and checksum. */
export const API_KEY_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** What every key starts with. */
export const API_KEY_PREFIX = 'vgl_';
/** Length of a key's random part. */
export const API_KEY_RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const KEY_PATTERN = /^vgl_[0-9A-Za-z]{38}$/;
/** Why a string is not a key, in words an operator reading a startup error understands. */
export const API_KEY_FORMAT_MESSAGE =
  'Use a valid Vigil key: vgl_, 32 base62 characters and a 6-character checksum.';

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const utf8 = new TextEncoder();

function crc32(text: string): number {
  let crc = 0xffffffff;
  for (const byte of utf8.encode(text)) crc = (crcTable[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function base62(value: number, width: number): string {
  let out = '';
  let rest = value;
  while (rest > 0) {
    out = API_KEY_ALPHABET[rest % 62] + out;
    rest = Math.floor(rest / 62);
  }
  return out.padStart(width, '0');
}

/** The checksum a key with this random part ends with. */
export function apiKeyChecksum(random: string): string {
  return base62(crc32(random), CHECKSUM_LENGTH);
}

/** True when `raw` has the key shape and a matching checksum. */
export function isWellFormedApiKey(raw: string): boolean {
  if (!KEY_PATTERN.test(raw)) return false;
  const random = raw.slice(API_KEY_PREFIX.length, API_KEY_PREFIX.length + API_KEY_RANDOM_LENGTH);
  const checksum = raw.slice(API_KEY_PREFIX.length + API_KEY_RANDOM_LENGTH);
  return apiKeyChecksum(random) === checksum;
}
