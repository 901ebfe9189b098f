import { hashApiKey, randomBase62 } from '../auth/api-key.ts';

/**
 * The secret of an acknowledgement link (`/a/<token>`): `vack_` and 40 random base62 characters
 * (238 bits). Only its SHA-256 is stored (ack-link-items.ts), as for API keys and calendar feeds.
 */

const TOKEN_PATTERN = /^vack_[0-9A-Za-z]{40}$/;

/** A new link token and its SHA-256 hex (stored). */
export function newAckToken(): { token: string; hash: string } {
  const token = `vack_${randomBase62(40)}`;
  return { token, hash: hashApiKey(token) };
}

/** The hash to look a presented token up by, or undefined when it cannot be a link's token. */
export function ackTokenHash(token: string): string | undefined {
  return TOKEN_PATTERN.test(token) ? hashApiKey(token) : undefined;
}
