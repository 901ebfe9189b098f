import * as z from 'zod';
import { REDACTED } from '../../domain/redacted.ts';
import { HTTP_URL_PATTERN } from '../../domain/url-patterns.ts';
import type { SendOutcome } from '../ports.ts';
import { type HttpPostDeps, postOnce } from './http-post.ts';

/**
 * What the chat channels whose address is a URL (Microsoft Teams, Google Chat, Mattermost) and
 * Matrix share: the URL field of their config, its read-only view, the JSON send through the SSRF
 * guard with any secret scrubbed from an error answer, and fitting a digest's lines into a
 * provider's size limit.
 */

const MAX_URL_LENGTH = 2048;

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** A receiver's URL: https, or http:// for a receiver VIGIL_EGRESS_ALLOW allows (checked at create and send). */
export function receiverUrlSchema(example: string) {
  return z
    .string()
    .max(MAX_URL_LENGTH, `Enter a URL of at most ${MAX_URL_LENGTH} characters.`)
    .refine(isHttpUrl, `Enter an https:// URL, such as ${example}.`)
    .meta({
      pattern: HTTP_URL_PATTERN,
      description: `An https URL such as ${example}; http:// only for a receiver in a range VIGIL_EGRESS_ALLOW allows`,
    });
}

/** A URL that embeds its secret, as the API shows it. */
export const secretUrlView = z.string().meta({ description: `The URL; ${REDACTED} for read-only keys` });

/** The URL as the caller may see it: the whole secret-bearing URL, or the mask for a read-only key. */
export function shownUrl(url: string, readOnly: boolean): string {
  return readOnly ? REDACTED : url;
}

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
export function scrubbed(outcome: SendOutcome, secrets: readonly string[]): SendOutcome {
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
