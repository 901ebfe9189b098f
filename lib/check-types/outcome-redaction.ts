import { type Redact, secretRedactor } from '../domain/redaction.ts';
import type { ProbeDefinition, ProbeDetails, ProbeOutcome } from '../probes/types.ts';
import { checkTypeDefinition, isCheckType } from './registry.ts';

/**
 * A probe's outcome as it may be stored (docs/api.md "Secrets in results"): a target that echoes
 * the request (a same-origin `/headers` endpoint an assertion reads) never puts the check's header
 * values or the credentials of its URL, in any encoding lib/domain/redaction/secret-redaction.ts knows, into
 * the result's text. Applied where every probe answers (runProbe), so the probe threads, the
 * cloud worker, the cell runner and MCP's first probe all store the same redacted text.
 */

/**
 * The secrets a probe sends, as its type's definition names them (`secrets`): an http check's
 * header values and its URL's credentials, a gRPC check's metadata values.
 */
export function probeSecrets(def: ProbeDefinition): string[] {
  const type = isCheckType(def.check_type) ? checkTypeDefinition(def.check_type) : undefined;
  if (!type || !('secrets' in type) || !type.secrets) return [];
  // The registry pairs each type with its own secrets; the job's check_type chose it.
  return (type.secrets as (job: ProbeDefinition) => string[])(def);
}

function redactDetails(details: ProbeDetails, redact: Redact): ProbeDetails {
  return {
    ...details,
    ...(details.answers ? { answers: details.answers.map(redact) } : {}),
    ...(details.error_code !== undefined ? { error_code: redact(details.error_code) } : {}),
    ...(details.steps
      ? { steps: details.steps.map((s) => (s.error === undefined ? s : { ...s, error: redact(s.error) })) }
      : {}),
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
