import { isSafeEmailAddress } from '../domain/formats.ts';

/**
 * An identity's e-mail claim as an address: trimmed and lower-cased, then parsed whole by Vigil's
 * one address rule (lib/domain/formats/email-address.ts, a subset of the zod check invitations use: one
 * `@`, a valid local part and domain), so `x@evil.test@example.com` is no address in `example.com`.
 * Undefined when it is not an address.
 */
export function parseEmailAddress(claim: unknown): { email: string; domain: string } | undefined {
  if (typeof claim !== 'string') return undefined;
  const email = claim.trim().toLowerCase();
  if (!isSafeEmailAddress(email)) return undefined;
  const [, domain, ...rest] = email.split('@');
  // The rule allows no `@` in the local part; this states what the domain rule relies on.
  if (domain === undefined || rest.length > 0) return undefined;
  return { email, domain };
}
