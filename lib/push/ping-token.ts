import { hashApiKey, keyPrefix, randomBase62 } from '../auth/api-key.ts';

/**
 * The token of a ping URL (`/ping/<token>`): `vpt_<40 base62>_<check id>`. The check id at the end
 * names the partition the token's item lives in, so a ping finds it with one read and no index;
 * the random part is the secret. Only its SHA-256 is stored, as for API keys.
 */

const TOKEN_PREFIX = 'vpt_';
const RANDOM_LENGTH = 40;
const TOKEN_PATTERN = /^vpt_[0-9A-Za-z]{40}_(chk_[0-9A-HJKMNP-TV-Z]{26})$/;

/** A new ping token for `checkId`, its SHA-256 hex (stored) and its displayable prefix. */
export function newPingToken(checkId: string): { token: string; hash: string; prefix: string } {
  const token = `${TOKEN_PREFIX}${randomBase62(RANDOM_LENGTH)}_${checkId}`;
  return { token, hash: hashApiKey(token), prefix: keyPrefix(token) };
}

/** The check a well-formed token names and the token's hash, or undefined for anything else. */
export function readPingToken(token: string): { checkId: string; hash: string } | undefined {
  const checkId = TOKEN_PATTERN.exec(token)?.[1];
  return checkId ? { checkId, hash: hashApiKey(token) } : undefined;
}
