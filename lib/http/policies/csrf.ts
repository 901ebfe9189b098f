import { timingSafeEqual } from 'node:crypto';
import type { Principal } from '../../domain/principal.ts';
import { ForbiddenError } from '../../platform/errors.ts';
import { type HostPolicy, isAllowedHost, isAllowedOrigin } from '../origin-policy.ts';
import type { HttpRequest } from '../types.ts';

/** The header a cookie-authenticated write carries its session's CSRF token in (GET /v1/me's `csrf_token`). */
const CSRF_HEADER = 'x-csrf-token';

const same = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * Cookie-authenticated writes (docs/auth.md "Sessions"): the browser sends the session cookie with
 * any request to the origin, so a write must also prove it came from the console: an Origin that
 * is the request's own (or VIGIL_PUBLIC_URL's) on an allowed Host, and the session's CSRF token in
 * `X-CSRF-Token`. Bearer requests (keys, OAuth tokens) carry no ambient credential and need neither.
 */
export function createCsrfCheck(policy: HostPolicy) {
  return (req: HttpRequest, principal: Principal): void => {
    if (principal.credential !== 'session') return;
    const { headers } = req;
    if (headers.origin === undefined || !isAllowedOrigin(headers, policy.publicUrl))
      throw new ForbiddenError('cross-site request refused: a signed-in write needs the console origin');
    if (!isAllowedHost(headers, policy, req.platformHost))
      throw new ForbiddenError('cross-site request refused: unknown host');
    const token = headers[CSRF_HEADER];
    if (!principal.csrfToken || token === undefined || !same(token, principal.csrfToken))
      throw new ForbiddenError('missing or invalid X-CSRF-Token (GET /v1/me gives it)');
  };
}

/**
 * A sign-in from another site's page (login CSRF: the victim's browser signed in to the
 * attacker's account): a request that answers a session cookie and carries an Origin must carry
 * the console's. Without an Origin (curl, a server) it passes, as the cookie then goes nowhere else.
 */
export function refuseCrossSiteSignIn(headers: Record<string, string>, publicUrl: string | undefined): void {
  if (headers.origin !== undefined && !isAllowedOrigin(headers, publicUrl))
    throw new ForbiddenError('cross-site sign-in refused: sign in from the console');
}
