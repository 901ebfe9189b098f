import { createHmac, timingSafeEqual } from 'node:crypto';
import { parse } from 'cookie';

/**
 * The cookie that opens a password page: `vigil_page=<expiry ms>.<HMAC-SHA256(page's access key,
 * slug + expiry)>`, HttpOnly, SameSite=Lax, Path=/p/{slug} (so it goes to that page's routes
 * only; Path=/ on the page's custom domain, all of which is the page's), Secure over https. The key is the page's own and changes with its visibility or password,
 * so changing either signs every visitor out; no server-wide secret is needed in either runtime.
 */

const COOKIE = 'vigil_page';
/** How long a visitor stays in after giving the password. */
const ACCESS_SECONDS = 12 * 3600;

const signature = (key: string, slug: string, expiresMs: number) =>
  createHmac('sha256', key).update(`${slug}\n${expiresMs}`).digest('base64url');

/** The Set-Cookie of a visitor who gave the page's password, for the page's routes at `path`. */
export function accessSetCookie(
  page: { slug: string; path: string },
  key: string,
  nowMs: number,
  secure: boolean,
): string {
  const expires = nowMs + ACCESS_SECONDS * 1000;
  const value = `${expires}.${signature(key, page.slug, expires)}`;
  return `${COOKIE}=${value}; Max-Age=${ACCESS_SECONDS}; Path=${page.path}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** Whether the request's cookie opens the page: signed with its current key and not expired. */
export function hasAccess(
  cookieHeader: string | undefined,
  slug: string,
  key: string,
  nowMs: number,
): boolean {
  if (cookieHeader === undefined) return false;
  const value = parse(cookieHeader)[COOKIE];
  const match = value?.match(/^([0-9]{1,15})\.([\w-]{43})$/);
  if (!match) return false;
  const expires = Number(match[1]);
  if (expires <= nowMs) return false;
  const given = Buffer.from(match[2] ?? '');
  const wanted = Buffer.from(signature(key, slug, expires));
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}
