import * as z from 'zod';

/**
 * The slug rule (DECISIONS.md): how blueprints, entities and skills are addressed. One place holds
 * the pattern and one sentence says it, so every refusal reads the same and none shows a regex.
 */

/** 1 to 63 characters: lowercase letters, digits and hyphens, not starting with a hyphen. */
export const SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** What a slug may contain, said to a user whose slug was refused (shown at the slug's field). */
const SLUG_RULE =
  'Use lower-case letters (a-z), digits and hyphens, starting with a letter or a digit, at most 63 characters.';

/** Said for an empty slug: it is missing, not badly written. */
const SLUG_MISSING = 'Enter a slug.';

/** A slug in a request (body, query or path); a fresh schema each call, so each may name its resource. */
export function slugSchema() {
  return z.string().regex(SLUG, { error: (issue) => (issue.input === '' ? SLUG_MISSING : SLUG_RULE) });
}
