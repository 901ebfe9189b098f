import { failureText, sendGuarded } from '../../providers/provider-post.ts';
import type { SendOutcome } from '../items/ports.ts';
import type { HttpPostDeps } from './send-ports.ts';

export { failureText } from '../../providers/provider-post.ts';
export type { HttpPostDeps } from './send-ports.ts';

/** Enough of an error answer to say why ("invalid_token"), never a whole page. */
const MAX_ANSWER_BYTES = 1024;
const MAX_ANSWER_SHOWN = 200;

/** The first words of an error answer, on one line. */
function answerSnippet(body: Buffer): string {
  const text = body.toString('utf8').replace(/\s+/g, ' ').trim();
  return text.length <= MAX_ANSWER_SHOWN ? text : `${text.slice(0, MAX_ANSWER_SHOWN - 1)}…`;
}

/**
 * POSTs one body to a receiver the user names (a webhook, a chat's incoming-webhook URL) through
 * the providers' one guarded path (lib/providers/provider-post.ts: private addresses denied unless
 * allow-listed, checked on connect; an http:// URL only to allow-listed addresses, checked on
 * connect too, since a name accepted at create may point elsewhere now), following no redirect.
 * A 2xx answer is a success; anything else a failed attempt, said with the answer's first words.
 * `method` is POST unless the API sends with PUT (Matrix's idempotent `send/{txnId}`).
 */
export async function postOnce(
  deps: HttpPostDeps,
  request: { url: string; headers: Record<string, string>; body: string | Buffer; method?: 'POST' | 'PUT' },
): Promise<SendOutcome> {
  try {
    const res = await sendGuarded(deps, request, MAX_ANSWER_BYTES);
    if (res.status >= 200 && res.status < 300) return { ok: true, status_code: res.status, error: null };
    const snippet = answerSnippet(res.bodyPrefix);
    const error = `the endpoint answered ${res.status}${snippet ? `: ${snippet}` : ''}`;
    return { ok: false, status_code: res.status, error };
  } catch (err) {
    return { ok: false, status_code: null, error: failureText(err, deps.runtime) };
  }
}
