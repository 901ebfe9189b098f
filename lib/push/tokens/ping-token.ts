import { randomUUID } from 'node:crypto';
import { hashApiKey } from '../../auth/api-key.ts';

/**
 * The token of a ping URL (`/ping/<token>`). New tokens are random UUIDs (v4), as Healthchecks'
 * check codes are, so its clients (which validate the UUID) and crontab lines work unchanged; a
 * lookup item keyed by the token's SHA-256 names its check (push-token-items.ts). Tokens made
 * before UUIDs, `vpt_<40 base62>_<check id>`, keep working: their tail names the partition their
 * item lives in. Only a token's SHA-256 is stored, as for API keys.
 */

const LEGACY_PATTERN = /^vpt_[0-9A-Za-z]{40}_(chk_[0-9A-HJKMNP-TV-Z]{26})$/;
/** Healthchecks' URL pattern for check codes: lower-case hex only (an upper-case UUID names nothing). */
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A UUID in any case, as `?rid=` takes it (Healthchecks' is_valid_uuid_string). */
const ANY_CASE_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Characters of a UUID token shown as its prefix (32 of its 122 random bits). */
const UUID_PREFIX_LENGTH = 8;

/** A new ping token (a v4 UUID from the crypto RNG), its SHA-256 hex (stored) and its displayable prefix. */
export function newPingToken(): { token: string; hash: string; prefix: string } {
  const token = randomUUID();
  return { token, hash: hashApiKey(token), prefix: token.slice(0, UUID_PREFIX_LENGTH) };
}

/** What a path segment is as a ping token: a UUID, a legacy token (with its check), or neither. */
export type ReadToken =
  | { kind: 'uuid'; hash: string }
  | { kind: 'legacy'; checkId: string; hash: string }
  | undefined;

export function readPingToken(token: string): ReadToken {
  if (UUID_PATTERN.test(token)) return { kind: 'uuid', hash: hashApiKey(token) };
  const checkId = LEGACY_PATTERN.exec(token)?.[1];
  return checkId ? { kind: 'legacy', checkId, hash: hashApiKey(token) } : undefined;
}

/** Whether a path segment has a ping token's form (then it is never read as a ping key). */
export function looksLikePingToken(segment: string): boolean {
  return ANY_CASE_UUID.test(segment) || segment.startsWith('vpt_');
}

/** A `?rid=` value: any UUID, kept in lower case; undefined when it is not one. */
export function readRunId(rid: string): string | undefined {
  return ANY_CASE_UUID.test(rid) ? rid.toLowerCase() : undefined;
}
