import { hashApiKey, randomBase62 } from '../../auth/api-key.ts';

/**
 * The secret of a calendar feed's URL (`/ical/<token>.ics`): `vcal_` and 40 random base62
 * characters (238 bits). Only its SHA-256 is stored (feed-items.ts), as for API keys; the token is
 * shown once, in the answer that creates the feed.
 */

const TOKEN_PATTERN = /^vcal_[0-9A-Za-z]{40}$/;
/** Characters of the token shown as its prefix: `vcal_` and 6 of the random part. */
const PREFIX_LENGTH = 11;

/** A new feed token, its SHA-256 hex (stored) and its displayable prefix. */
export function newFeedToken(): { token: string; hash: string; prefix: string } {
  const token = `vcal_${randomBase62(40)}`;
  return { token, hash: hashApiKey(token), prefix: token.slice(0, PREFIX_LENGTH) };
}

/** The hash to look a presented token up by, or undefined when it cannot be a feed token. */
export function feedTokenHash(token: string): string | undefined {
  return TOKEN_PATTERN.test(token) ? hashApiKey(token) : undefined;
}
