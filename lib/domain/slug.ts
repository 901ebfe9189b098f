import * as z from 'zod';

/**
 * The slug rule (DECISIONS.md): how blueprints, entities and skills are addressed. One place holds
 * the pattern and one sentence says it, so every refusal reads the same and none shows a regex.
 */

/** 1 to 63 characters: lowercase letters, digits and hyphens, not starting with a hyphen. */
export const SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** What a slug may contain, said to a user whose slug was refused (a field's message: "slug: …"). */
export const SLUG_RULE =
  'may contain only lowercase letters (a-z), digits and hyphens, must start with a letter or a digit, ' +
  'and is at most 63 characters long';

/** A slug in a request (body, query or path); a fresh schema each call, so each may name its resource. */
export function slugSchema() {
  return z.string().regex(SLUG, SLUG_RULE);
}
