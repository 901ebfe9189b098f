import { httpRequest } from '../../egress/egress.ts';
import { connectionFailureText, egressRefusal } from '../../egress/egress-advice.ts';
import { ConnectionError, EgressDeniedError, TimeoutError } from '../../egress/egress-errors.ts';
import { undiciRequest } from '../../egress/undici-client.ts';
import type { Runtime } from '../../platform/config.ts';
import type { ContactSendDeps, SendResult } from './definition.ts';

/**
 * One POST of a contact kind through the SSRF guard (lib/egress: private addresses denied unless
 * VIGIL_EGRESS_ALLOW lists them, http:// only to those, no redirect followed, 10 s); a failure is
 * said with the provider's own words, with every secret and the address taken out.
 */

const SEND_TIMEOUT_MS = 10_000;

export const failed = (error: string): SendResult => ({ ok: false, error });

/** Each secret in `text` replaced by ********. */
export function scrub(text: string, secrets: readonly (string | undefined)[]): string {
  return secrets.reduce<string>((out, s) => (s && s.length >= 4 ? out.split(s).join('********') : out), text);
}

function failureText(err: unknown, runtime: Runtime): string {
  if (err instanceof EgressDeniedError) return `not sent: ${egressRefusal(err, runtime)}`;
  if (err instanceof TimeoutError) return `timed out after ${err.timeoutMs / 1000} s`;
  if (err instanceof ConnectionError) return connectionFailureText(err);
  return err instanceof Error ? err.message : String(err);
}

/** The provider's error words from a JSON answer (message, description, error, errors). */
function wordsOf(json: unknown): string {
  const words = typeof json === 'object' && json !== null ? (json as Record<string, unknown>) : {};
  return [words.message, words.description, words.error, words.errors]
    .flat()
    .filter((w): w is string => typeof w === 'string')
    .join('; ')
    .slice(0, 200);
}

/** Posts once; 2xx (and `accepted`, when given) is a success. */
export async function postToProvider(
  deps: ContactSendDeps,
  provider: string,
  request: { url: string; headers: Record<string, string>; body: string },
  secrets: readonly (string | undefined)[],
  accepted: (json: unknown) => boolean = () => true,
): Promise<SendResult> {
  try {
    const res = await httpRequest({
      url: request.url,
      method: 'POST',
      headers: request.headers,
      body: request.body,
      timeoutMs: SEND_TIMEOUT_MS,
      maxRedirects: 0,
      maxBodyBytes: 4096,
      allowPrivate: false,
      allow: deps.egressAllow,
      httpOnlyToAllowList: true,
      resolve: deps.egress?.resolve,
      ca: deps.egress?.ca,
      transport: deps.egress?.transport ?? undiciRequest,
    });
    let json: unknown;
    try {
      json = JSON.parse(res.bodyPrefix.toString('utf8'));
    } catch {
      json = undefined;
    }
    if (res.status >= 200 && res.status < 300 && accepted(json)) return { ok: true };
    const why = wordsOf(json);
    return failed(scrub(`${provider} answered ${res.status}${why ? `: ${why}` : ''}`, secrets));
  } catch (err) {
    return failed(scrub(failureText(err, deps.runtime), secrets));
  }
}
