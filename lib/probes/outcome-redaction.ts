import { type Redact, secretRedactor, urlSecrets } from '../domain/secret-redaction.ts';
import type { ProbeDefinition, ProbeDetails, ProbeOutcome } from './types.ts';

/**
 * A probe's outcome as it may be stored (docs/api.md "Secrets in results"): a target that echoes
 * the request (a same-origin `/headers` endpoint an assertion reads) never puts the check's header
 * values or the credentials of its URL, in any encoding lib/domain/secret-redaction.ts knows, into
 * the result's text. Applied where every probe answers (runProbe), so the probe threads, the
 * cloud worker, the cell runner and MCP's first probe all store the same redacted text.
 */

/** The secrets a probe sends: an http check's header values and its URL's credentials. */
export function probeSecrets(def: ProbeDefinition): string[] {
  if (def.check_type !== 'http') return [];
  return [...Object.values(def.headers ?? {}), ...urlSecrets(def.target_url)];
}

function redactDetails(details: ProbeDetails, redact: Redact): ProbeDetails {
  return {
    ...details,
    ...(details.answers ? { answers: details.answers.map(redact) } : {}),
    ...(details.error_code !== undefined ? { error_code: redact(details.error_code) } : {}),
  };
}

/** The outcome with the probe's secrets hidden in its message and details; as it was when it has no text. */
export function redactOutcome(outcome: ProbeOutcome, def: ProbeDefinition): ProbeOutcome {
  // A passing probe has no message: most outcomes are done here, with no redactor made.
  if (outcome.error_message === '' && outcome.details === undefined) return outcome;
  const secrets = probeSecrets(def);
  if (secrets.length === 0) return outcome;
  const redact = secretRedactor(secrets);
  return {
    ...outcome,
    error_message: redact(outcome.error_message),
    ...(outcome.details ? { details: redactDetails(outcome.details, redact) } : {}),
  };
}
