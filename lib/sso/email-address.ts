import * as z from 'zod';

/** The same rule as an invitation's address (lib/auth/team-routes.ts): zod's e-mail, at most 254 characters. */
const address = z.email().max(254);

/**
 * An identity's e-mail claim as an address: trimmed and lower-cased, then parsed whole (one `@`,
 * a valid local part and domain), so `x@evil.test@example.com` is no address in `example.com`.
 * Undefined when it is not an address.
 */
export function parseEmailAddress(claim: unknown): { email: string; domain: string } | undefined {
  if (typeof claim !== 'string') return undefined;
  const parsed = address.safeParse(claim.trim().toLowerCase());
  if (!parsed.success) return undefined;
  const [, domain, ...rest] = parsed.data.split('@');
  // zod's pattern allows no `@` in the local part; this states what the domain rule relies on.
  if (domain === undefined || rest.length > 0) return undefined;
  return { email: parsed.data, domain };
}
