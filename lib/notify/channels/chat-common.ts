import { REDACTED } from '../../domain/redaction.ts';
import type { SendOutcome } from '../items/ports.ts';
import { type HttpPostDeps, postOnce } from './http-post.ts';

/**
 * What Microsoft Teams, Google Chat, Mattermost and Matrix share: the JSON send through the SSRF
 * guard with the secret parts of the URL scrubbed from an error answer (the dispatch scrubs the
 * URL and its path; a Teams signature or a Google key and token sit in the query), and fitting a
 * digest's lines into a provider's size limit.
 */

/** Parts of a URL long enough to be a secret (a path segment, a query value), the URL itself first. */
export function secretPartsOf(url: string): string[] {
  try {
    const parsed = new URL(url);
    const parts = [url, ...parsed.pathname.split('/'), ...parsed.searchParams.values()];
    return parts.filter((part) => part.length >= 8);
  } catch {
    return [url];
  }
}

/** The outcome with every secret in its error replaced by the mask: an error answer may echo the request. */
function scrubbed(outcome: SendOutcome, secrets: readonly string[]): SendOutcome {
  if (!outcome.error) return outcome;
  let error = outcome.error;
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    if (secret) error = error.split(secret).join(REDACTED);
  }
  return { ...outcome, error };
}

/** Sends a JSON body once through the SSRF guard, scrubbing `secrets` from the outcome. */
export async function sendJson(
  deps: HttpPostDeps,
  request: { url: string; body: unknown; headers?: Record<string, string>; method?: 'POST' | 'PUT' },
  secrets: readonly string[],
): Promise<SendOutcome> {
  const outcome = await postOnce(deps, {
    url: request.url,
    method: request.method,
    headers: { 'content-type': 'application/json', ...request.headers },
    body: JSON.stringify(request.body),
  });
  return scrubbed(outcome, secrets);
}

/** Posts a JSON payload to a webhook URL that is itself the secret (a Teams or Google Chat webhook). */
export const postToSecretUrl = (
  deps: { http: HttpPostDeps },
  url: string,
  payload: unknown,
): Promise<SendOutcome> => sendJson(deps.http, { url, body: payload }, secretPartsOf(url));

export const utf8Bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');

/**
 * The most of `lines` (in order) for which `fits` holds, with "… and N more in this digest" when
 * some were left out: `fits` measures the whole payload, so every provider limit (bytes of the
 * body, characters of a field) is checked on what is sent.
 */
export function fitLines(lines: string[], fits: (kept: string[]) => boolean): string[] {
  const keep = (k: number) =>
    k === lines.length ? lines : [...lines.slice(0, k), `… and ${lines.length - k} more in this digest`];
  if (fits(keep(lines.length))) return lines;
  let low = 0;
  let high = lines.length - 1;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (fits(keep(mid))) low = mid;
    else high = mid - 1;
  }
  return keep(low);
}
