import { createHmac, timingSafeEqual } from 'node:crypto';
import { parse } from 'cookie';

/**
 * The cookie that lets an SSO page's reader in on its custom domain, where Vigil's console session
 * cookie never goes: `vigil_page_sso=<user id>.<session id>.<HMAC-SHA256(page's access key, slug,
 * user id, session id)>`, Path=/ (the whole domain is the page's), HttpOnly, SameSite=Lax, Secure
 * over https. It names the console session it was handed (../public/sso-pass-routes.ts) and proves the page
 * gave it; it is no session of its own: the gate reads the named session on every request, so
 * signing out on Vigil's host, its expiry or the member's removal shut the page at once. The key
 * is the page's own (made again with each change of visibility), so such a change signs every
 * reader out of the domain.
 */

const COOKIE = 'vigil_page_sso';
const VALUE = /^([a-z]{2,4}_[0-9A-Za-z]{1,60})\.([a-z]{2,4}_[0-9A-Za-z]{1,60})\.([\w-]{43})$/;

/** The console session a domain cookie names. */
export interface SessionRef {
  userId: string;
  sessionId: string;
}

const signature = (key: string, slug: string, ref: SessionRef) =>
  createHmac('sha256', key).update(`${slug}\n${ref.userId}\n${ref.sessionId}`).digest('base64url');

/** The Set-Cookie of a reader handed over to the page's domain, for `maxAgeSeconds` (the session's rest). */
export function ssoDomainSetCookie(
  slug: string,
  key: string,
  ref: SessionRef,
  maxAgeSeconds: number,
  secure: boolean,
): string {
  const value = `${ref.userId}.${ref.sessionId}.${signature(key, slug, ref)}`;
  return `${COOKIE}=${value}; Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}; Path=/; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** The session the request's cookie names, when the page's current key signed it; else undefined. */
export function ssoDomainSession(
  cookieHeader: string | undefined,
  slug: string,
  key: string,
): SessionRef | undefined {
  if (cookieHeader === undefined) return undefined;
  const match = parse(cookieHeader)[COOKIE]?.match(VALUE);
  if (!match) return undefined;
  const ref = { userId: match[1] ?? '', sessionId: match[2] ?? '' };
  const given = Buffer.from(match[3] ?? '');
  const wanted = Buffer.from(signature(key, slug, ref));
  return given.length === wanted.length && timingSafeEqual(given, wanted) ? ref : undefined;
}
