import type { IncomingHttpHeaders } from 'node:http';
import { REDACTED } from '../domain/redaction.ts';
import { type HttpTransport, httpRequest } from '../egress/egress.ts';
import { connectionFailureText, egressRefusal } from '../egress/egress-advice.ts';
import {
  ConnectionError,
  EgressDeniedError,
  InvalidUrlError,
  TimeoutError,
  TooManyRedirectsError,
} from '../egress/egress-errors.ts';
import type { Resolve } from '../egress/egress-guard.ts';
import { undiciRequest } from '../egress/undici-client.ts';
import type { Runtime } from '../platform/config.ts';

/**
 * The one way a message reaches a messaging provider's API (Telegram, Pushover, Twilio, ntfy, and
 * every URL channel): through the SSRF guard (private addresses denied unless VIGIL_EGRESS_ALLOW
 * lists them, http:// only to those, checked on connect), no redirect followed, 10 s, the first
 * bytes of the answer only. A provider's failure is said in its own words (`explain`, from its
 * JSON fields: "Unauthorized", "bot was blocked by the user"), with every secret taken out, since
 * some answers (and a URL with a token in its path) would echo them. Alert channels and people's
 * contact methods (each provider's uses, ./<provider>.ts) both send here.
 */

/** How a send reaches the network: the SSRF guard's allow-list, and test hooks. */
export interface ProviderHttp {
  egressAllow: readonly string[];
  /** Which runtime's setting a refusal names (VIGIL_EGRESS_ALLOW, or the cloud's deployment setting); local by default. */
  runtime?: Runtime | undefined;
  ca?: string[] | undefined;
  resolve?: Resolve | undefined;
  /** The process's kept-alive pools (lib/egress/egress-pool.ts); a fresh connection per send without. */
  transport?: HttpTransport | undefined;
}

/** One attempt's outcome, as the delivery log and a contact method's send record it. */
export interface ProviderOutcome {
  ok: boolean;
  status_code: number | null;
  error: string | null;
}

/** DECISIONS.md: a webhook attempt that takes longer fails; every provider shares the budget. */
const SEND_TIMEOUT_MS = 10_000;
/** Enough of an answer for the provider's error fields, never a whole page. */
const MAX_ANSWER_BYTES = 4096;
const MAX_ERROR_SHOWN = 300;

export interface ProviderRequest {
  url: string;
  headers: Record<string, string>;
  body: string | Buffer;
  method?: 'POST' | 'PUT';
}

/** The answer, when one came. */
export interface ProviderAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
  text: string;
}

/** A failed attempt's error as one short sentence, saying what would let the send through. */
export function failureText(err: unknown, runtime: Runtime = 'local'): string {
  if (err instanceof TimeoutError) return `timed out after ${err.timeoutMs / 1000} s`;
  if (err instanceof EgressDeniedError) return `not sent: ${egressRefusal(err, runtime)}`;
  if (err instanceof TooManyRedirectsError) return 'the endpoint answered a redirect, which is not followed';
  if (err instanceof ConnectionError) return connectionFailureText(err);
  if (err instanceof InvalidUrlError) return err.message;
  return `send failed: ${err instanceof Error ? err.message : String(err)}`;
}

/** One request through the SSRF guard: no redirect followed, the send budget, the answer's first bytes. */
export function sendGuarded(http: ProviderHttp, request: ProviderRequest, maxAnswerBytes = MAX_ANSWER_BYTES) {
  return httpRequest({
    url: request.url,
    method: request.method ?? 'POST',
    headers: request.headers,
    body: request.body,
    timeoutMs: SEND_TIMEOUT_MS,
    maxRedirects: 0,
    maxBodyBytes: maxAnswerBytes,
    allowPrivate: false,
    allow: http.egressAllow,
    httpOnlyToAllowList: true,
    resolve: http.resolve,
    ca: http.ca,
    transport: http.transport ?? undiciRequest,
  });
}

/** Each secret in `text` replaced by ********. */
export function scrub(text: string, secrets: readonly (string | undefined)[]): string {
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

/** How a provider's answer is read: its secrets, its error words, and what a 2xx must also say. */
export interface ProviderReading {
  secrets: readonly (string | undefined)[];
  explain: (answer: ProviderAnswer) => string | undefined;
  accepted?: (answer: ProviderAnswer) => boolean;
}

/**
 * Posts the request and turns the answer into an outcome: 2xx (and `accepted`, when given) is a
 * success; otherwise `explain` phrases the provider's own error fields, with the answer's first
 * words when it cannot. Failures name `provider` and never a secret.
 */
export async function postToProvider(
  http: ProviderHttp,
  provider: string,
  request: ProviderRequest,
  reading: ProviderReading,
): Promise<ProviderOutcome> {
  let answer: ProviderAnswer;
  try {
    const res = await sendGuarded(http, request);
    const text = res.bodyPrefix.toString('utf8');
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    answer = { status: res.status, headers: res.headers, json, text };
  } catch (err) {
    return { ok: false, status_code: null, error: scrub(failureText(err, http.runtime), reading.secrets) };
  }
  const success = answer.status >= 200 && answer.status < 300;
  if (success && (reading.accepted?.(answer) ?? true))
    return { ok: true, status_code: answer.status, error: null };
  const why = reading.explain(answer) ?? oneLine(answer.text);
  const wait = answer.status === 429 ? retryAfterSeconds(answer) : undefined;
  const retry = wait === undefined ? '' : `; it asks to retry after ${wait} s`;
  const error = `${provider} answered ${answer.status}${why ? `: ${oneLine(why)}` : ''}${retry}`;
  return { ok: false, status_code: answer.status, error: scrub(error, reading.secrets) };
}

/** A field of a JSON answer when it is a string or number. */
export function field(json: unknown, key: string): string | number | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const value = (json as Record<string, unknown>)[key];
  return typeof value === 'string' || typeof value === 'number' ? value : undefined;
}
