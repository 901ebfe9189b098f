/**
 * Where an SSO page sends a reader to sign in (docs/status-pages.md "SSO pages"): on Vigil's host,
 * the team's SSO sign-in, which comes back to `next`; on the page's custom domain, the hand-off on
 * Vigil's host (`/p/{slug}/sso-pass?to=`), which signs in there if need be and comes back to the
 * domain's path `to` with a single-use token (../public/sso-pass-routes.ts).
 */

/** The longest path `to` may be: the hand-off's URL must fit the SSO sign-in's `next` (1,000). */
const MAX_TO = 500;

/**
 * A path on the page's domain to land on, `/` for anything else: one leading `/` (not `//` nor
 * `/\`, which browsers read as another host), no scheme, no backslash, space or control character,
 * at most MAX_TO characters, and still on the same origin once resolved.
 */
export function pagePathOrRoot(to: string | undefined): string {
  if (to === undefined || to.length > MAX_TO || !to.startsWith('/') || to.startsWith('//')) return '/';
  if ([...to].some((c) => c === '\\' || c.charCodeAt(0) <= 0x20 || c.charCodeAt(0) === 0x7f)) return '/';
  return new URL(to, 'https://page.invalid').origin === 'https://page.invalid' ? to : '/';
}

/** The team's SSO sign-in on Vigil's host, coming back to `next` (a path there). */
export const ssoStartLink = (tenantId: string, next: string) =>
  `/v1/sso/start?${new URLSearchParams({ tenant: tenantId, next })}`;

/** The hand-off's path on Vigil's host, for the domain's path `to`. */
export const ssoPassPath = (slug: string, to: string) =>
  `/p/${slug}/sso-pass?${new URLSearchParams({ to: pagePathOrRoot(to) })}`;
