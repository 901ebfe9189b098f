import type { HttpAssertion } from '../domain/http-assertions.ts';
import { CUT_MARK, isSecretName, maskSecretLooking, REDACTED } from '../domain/redaction.ts';

/**
 * The words of a failed assertion (docs/api.md "Assertions and degraded"). They are stored in the
 * result that read-only keys, alerts and MCP clients read, so a value is shown only when it is not
 * secret-looking (a secret-looking header or json name, a credential-shaped text, at any depth of
 * an object), and at most MAX_SHOWN characters of it. The check's own secrets are hidden after, by
 * the probe's redactor (lib/check-types/run-probe.ts), which also knows the `…` of a shortened value.
 */

/** Characters of a value a message shows at most. */
export const MAX_SHOWN = 120;

/** How the assertion names what it reads: `$.a.b`, `header content-type`, `status`, `body`, `latency`. */
export function subject(assertion: HttpAssertion): string {
  if (assertion.source === 'json') return assertion.path ?? '$';
  if (assertion.source === 'header') return `header ${(assertion.path ?? '').toLowerCase()}`;
  if (assertion.source === 'latency_ms') return 'latency_ms';
  return assertion.source;
}

/** Whether what the assertion reads is secret by its name: a header, or any name along a json path. */
function readsSecret(assertion: HttpAssertion): boolean {
  if (assertion.source === 'header') return isSecretName(assertion.path ?? '');
  if (assertion.source !== 'json') return false;
  // Names only: `$.cookies[0]` and `$.session.id` read secret values as much as `$.token` does.
  return (assertion.path ?? '').split(/[.[\]]/).some((name) => name !== '' && isSecretName(name));
}

function shown(value: unknown): string {
  const json = JSON.stringify(maskSecretLooking(value)) ?? String(value);
  return json.length <= MAX_SHOWN ? json : `${json.slice(0, MAX_SHOWN - 1)}${CUT_MARK}`;
}

/** The message: `assertion failed: $.status is "degraded", expected eq "ok"`; `********` for secret values. */
export function failureMessage(assertion: HttpAssertion, actual: unknown, reason: string): string {
  const secret = readsSecret(assertion);
  const show = (value: unknown) => (secret ? REDACTED : shown(value));
  const is = actual === undefined ? 'is missing' : `is ${show(actual)}`;
  const expected =
    assertion.op === 'exists'
      ? `expected ${(assertion.value ?? true) ? 'to exist' : 'not to exist'}`
      : `expected ${assertion.op} ${show(assertion.value)}`;
  const why = reason !== '' && reason !== 'is missing' ? ` (${reason})` : '';
  // A body is not repeated in the message: it may be long, and the target's words are not ours.
  const what = assertion.source === 'body' && actual !== undefined ? 'body' : `${subject(assertion)} ${is}`;
  return `assertion failed: ${what}, ${expected}${why}`;
}
