/**
 * The browser policies other folders apply (their front door; policies/ is private): the console's
 * security headers, the CSRF check, the public origin, the session cookie and Set-Cookie handling.
 * Which hosts a request may name is origin-policy.ts's.
 */

export {
  CONSOLE_ASSET_CACHE,
  CONSOLE_ASSETS_PREFIX,
  CONSOLE_CSP,
  CONSOLE_SECURITY_HEADERS,
} from './policies/console-policy.ts';
export { createCsrfCheck, refuseCrossSiteSignIn } from './policies/csrf.ts';
export { publicOrigin, resourceMetadataUrl } from './policies/public-origin.ts';
export { SESSION_COOKIE, sessionCookieOf } from './policies/session-cookie.ts';
export { joinSetCookies, nodeHeaders, splitSetCookies } from './policies/set-cookies.ts';
