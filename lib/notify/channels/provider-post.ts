import type { IncomingHttpHeaders } from 'node:http';
import { REDACTED } from '../../domain/redaction.ts';
import type { SendOutcome } from '../pipeline/ports.ts';
import { failureText, type HttpPostDeps, sendGuarded } from './http-post.ts';

/**
 * A POST to a provider's API (Telegram, Pushover, Gotify, Twilio) whose answer says why it failed
 * in JSON: the same SSRF guard, timeout and no-redirect rule as postOnce (http-post.ts), but the
 * answer's body and Retry-After reach the definition, which phrases the failure from the provider's
 * own fields ("Unauthorized", "bot was blocked by the user"). Every text is scrubbed of the
 * channel's secrets, since some answers (and a URL with a token in its path) would echo them.
 */

/** Enough of an answer for the provider's error fields. */
const MAX_ANSWER_BYTES = 4096;
const MAX_ERROR_SHOWN = 300;

export interface ProviderRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** The answer, when one came. */
export interface ProviderAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
  text: string;
}

/** Each secret in `text` replaced by ********. */
function scrub(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join(REDACTED);
  }
  return out;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= MAX_ERROR_SHOWN ? flat : `${flat.slice(0, MAX_ERROR_SHOWN - 1)}…`;
}

/** Seconds a 429 answer asks to wait, from its Retry-After header (seconds form). */
function retryAfterSeconds(answer: ProviderAnswer): number | undefined {
  const header = answer.headers['retry-after'];
  const value = Array.isArray(header) ? header[0] : header;
  return value && /^\d+$/.test(value) ? Number(value) : undefined;
}

/**
 * Posts the request and turns the answer into an outcome: 2xx (and `accepted`, when given) is a
 * success; otherwise `explain` phrases the provider's own error fields ("Unauthorized"), with the
 * answer's first words when it cannot. Failures name `provider` and never a secret.
 */
export async function postToProvider(
  deps: HttpPostDeps,
  provider: string,
  request: ProviderRequest,
  options: {
    secrets: readonly (string | undefined)[];
    explain: (answer: ProviderAnswer) => string | undefined;
    accepted?: (answer: ProviderAnswer) => boolean;
  },
): Promise<SendOutcome> {
  let answer: ProviderAnswer;
  try {
    const res = await sendGuarded(deps, request, MAX_ANSWER_BYTES);
    const text = res.bodyPrefix.toString('utf8');
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    answer = { status: res.status, headers: res.headers, json, text };
  } catch (err) {
    return { ok: false, status_code: null, error: scrub(failureText(err, deps.runtime), options.secrets) };
  }
  const success = answer.status >= 200 && answer.status < 300;
  if (success && (options.accepted?.(answer) ?? true))
    return { ok: true, status_code: answer.status, error: null };
  const why = options.explain(answer) ?? oneLine(answer.text);
  const wait = answer.status === 429 ? retryAfterSeconds(answer) : undefined;
  const retry = wait === undefined ? '' : `; it asks to retry after ${wait} s`;
  const error = `${provider} answered ${answer.status}${why ? `: ${oneLine(why)}` : ''}${retry}`;
  return { ok: false, status_code: answer.status, error: scrub(error, options.secrets) };
}

/** A field of a JSON answer when it is a string or number. */
export function field(json: unknown, key: string): string | number | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const value = (json as Record<string, unknown>)[key];
  return typeof value === 'string' || typeof value === 'number' ? value : undefined;
}
