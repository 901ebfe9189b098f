import { hashApiKey, randomBase62 } from '../auth/api-key.ts';

/**
 * Location keys (DECISIONS.md "Probe locations"): `vlk_` + 40 random base62 characters, shown
 * once; only their SHA-256 is stored. The prefix keeps them apart from API keys (`vgl_`): neither
 * authenticates where the other does.
 */

const LOCATION_KEY_PATTERN = /^vlk_[0-9A-Za-z]{40}$/;

/** A new raw location key. */
export function generateLocationKey(): string {
  return `vlk_${randomBase62(40)}`;
}

/** True when `raw` has the location key's shape (checked before any lookup). */
export function isWellFormedLocationKey(raw: string): boolean {
  return LOCATION_KEY_PATTERN.test(raw);
}

/** SHA-256 hex of the raw key: the only form that is stored. */
export const hashLocationKey = hashApiKey;

/** The displayable start of a key (`vlk_` and 8 characters), safe to list and log. */
export const locationKeyPrefix = (raw: string) => raw.slice(0, 12);
