import { createHash, randomBytes } from 'node:crypto';
import { parse } from 'cookie';
import { sameDigest } from '../auth/api-key.ts';
import { CALLBACK_PATH } from './sso-settings.ts';

/**
 * The browser a pending SSO sign-in belongs to (login CSRF: a callback URL started in one browser
 * must not sign in another). The start sets a random value in a cookie only the callback gets
 * (HttpOnly, Path=/v1/sso/callback, SameSite=Lax so the provider's top-level redirect back carries
 * it, Secure over https); the pending sign-in keeps its SHA-256, and the callback compares them.
 */
const LOGIN_COOKIE = 'vigil_sso';

const VALUE = /^[\w-]{43}$/;

const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');

/** Whether cookies go with `Secure`: the cloud always serves over https; locally VIGIL_PUBLIC_URL or the edge tells. */
export type SecureRequest = (headers: Record<string, string>) => boolean;

/** The policy of a runtime: the same rule as the session cookie's (lib/people/sign-in/session-service.ts). */
export function secureRequestOf(runtime: 'local' | 'cloud', publicUrl: string | undefined): SecureRequest {
  return (headers) =>
    runtime === 'cloud' ||
    publicUrl?.startsWith('https:') === true ||
    headers['x-forwarded-proto']?.split(',')[0]?.trim().toLowerCase() === 'https';
}

const cookieLine = (value: string, maxAgeSeconds: number, secure: boolean) =>
  `${LOGIN_COOKIE}=${value}; Max-Age=${maxAgeSeconds}; Path=${CALLBACK_PATH}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;

/** A new binding: the Set-Cookie for the browser and the hash the pending sign-in keeps. */
export function newLoginBinding(maxAgeSeconds: number, secure: boolean): { setCookie: string; hash: string } {
  const value = randomBytes(32).toString('base64url');
  return { setCookie: cookieLine(value, maxAgeSeconds, secure), hash: sha256(value) };
}

/** The Set-Cookie that clears the binding (after a callback). */
export const clearLoginCookie = (secure: boolean) => cookieLine('', 0, secure);

/**
 * Whether the request carries the binding whose hash is `hash`. A missing, malformed or other
 * cookie, or a pending sign-in without a hash, is no match.
 */
export function isBoundBrowser(headers: Record<string, string>, hash: string | undefined): boolean {
  const header = headers.cookie;
  if (hash === undefined || header === undefined || header.length > 8192) return false;
  const value = parse(header)[LOGIN_COOKIE];
  return value !== undefined && VALUE.test(value) && sameDigest(sha256(value), hash);
}
