import type { CheckTlsTrust, ProbeOutcome } from './types.ts';

/** How a probe applies its check's own TLS trust (`job.tls`; the request side: lib/check-types/tls-trust.ts). */

/** What a result's details say of a probe that did not verify the certificate. */
const SKIP_VERIFY_WARNING = 'certificate not verified (skip_verify)';

/**
 * The CAs a probe trusts besides the system's: the process's probe CAs (deps.tlsCa) and the check's own
 * ca_pem, for this probe only (no process-wide effect).
 */
export function trustedCa(
  processCa: string[] | undefined,
  trust: CheckTlsTrust | undefined,
): string[] | undefined {
  if (!trust?.ca_pem) return processCa;
  return [...(processCa ?? []), trust.ca_pem];
}

/** The outcome with the skip_verify warning in its details when the check skips verification. */
export function withTrustWarning(outcome: ProbeOutcome, trust: CheckTlsTrust | undefined): ProbeOutcome {
  if (!trust?.skip_verify) return outcome;
  return { ...outcome, details: { ...outcome.details, tls_warning: SKIP_VERIFY_WARNING } };
}
