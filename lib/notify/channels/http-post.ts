import { httpRequest } from '../../egress/egress.ts';
import { connectionFailureText, egressRefusal } from '../../egress/egress-advice.ts';
import {
  ConnectionError,
  EgressDeniedError,
  InvalidUrlError,
  TimeoutError,
  TooManyRedirectsError,
} from '../../egress/egress-errors.ts';
import { undiciRequest } from '../../egress/undici-client.ts';
import type { Runtime } from '../../platform/config.ts';
import type { SendOutcome } from '../pipeline/ports.ts';
import type { HttpPostDeps } from './send-ports.ts';

export type { HttpPostDeps } from './send-ports.ts';

/** DECISIONS.md: a webhook attempt that takes longer fails; the other URL channels share the budget. */
const SEND_TIMEOUT_MS = 10_000;
/** Enough of an error answer to say why ("invalid_token"), never a whole page. */
const MAX_ANSWER_BYTES = 1024;
const MAX_ANSWER_SHOWN = 200;

/** The first words of an error answer, on one line. */
function answerSnippet(body: Buffer): string {
  const text = body.toString('utf8').replace(/\s+/g, ' ').trim();
  return text.length <= MAX_ANSWER_SHOWN ? text : `${text.slice(0, MAX_ANSWER_SHOWN - 1)}…`;
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

/**
 * One request of a channel through the SSRF guard: no redirect followed, the send budget, the
 * first bytes of the answer only (enough to say why it failed). Every channel sender goes here.
 */
export function sendGuarded(
  deps: HttpPostDeps,
  request: { url: string; headers: Record<string, string>; body: string | Buffer; method?: 'POST' | 'PUT' },
  maxAnswerBytes = MAX_ANSWER_BYTES,
) {
  return httpRequest({
    url: request.url,
    method: request.method ?? 'POST',
    headers: request.headers,
    body: request.body,
    timeoutMs: SEND_TIMEOUT_MS,
    maxRedirects: 0,
    maxBodyBytes: maxAnswerBytes,
    allowPrivate: false,
    allow: deps.egressAllow,
    httpOnlyToAllowList: true,
    resolve: deps.resolve,
    ca: deps.ca,
    transport: deps.transport ?? undiciRequest,
  });
}

/**
 * POSTs one body through the SSRF guard (private addresses denied unless allow-listed, checked on
 * connect; an http:// URL only to allow-listed addresses, checked on connect too, since a name
 * accepted at create may point elsewhere now), following no redirect. A 2xx answer is a success;
 * anything else a failed attempt. `method` is POST unless the API sends with PUT (Matrix's
 * idempotent `send/{txnId}`): one code path either way.
 */
export async function postOnce(
  deps: HttpPostDeps,
  request: { url: string; headers: Record<string, string>; body: string | Buffer; method?: 'POST' | 'PUT' },
): Promise<SendOutcome> {
  try {
    const res = await sendGuarded(deps, request);
    if (res.status >= 200 && res.status < 300) return { ok: true, status_code: res.status, error: null };
    const snippet = answerSnippet(res.bodyPrefix);
    const error = `the endpoint answered ${res.status}${snippet ? `: ${snippet}` : ''}`;
    return { ok: false, status_code: res.status, error };
  } catch (err) {
    return { ok: false, status_code: null, error: failureText(err, deps.runtime) };
  }
}
