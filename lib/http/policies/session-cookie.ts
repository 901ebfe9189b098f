import { parse } from 'cookie';

/**
 * The console's session cookie (docs/auth.md "Sessions"): an opaque id, hashed at rest. The
 * router hands it to the authenticator as the credential `Session <id>` when the request carries
 * no Authorization header, so a Bearer key always wins over a cookie.
 */
export const SESSION_COOKIE = 'vigil_session';

/** The session id the request's Cookie header carries, if any (bounded: a session id is short). */
export function sessionCookieOf(headers: Record<string, string>): string | undefined {
  const header = headers.cookie;
  if (header === undefined || header.length > 8192) return undefined;
  const value = parse(header)[SESSION_COOKIE];
  return value && /^[\x21-\x7e]{1,200}$/.test(value) ? value : undefined;
}

/** The Authorization value the router authenticates: the header, or the session cookie as `Session <id>`. */
export function credentialOfRequest(headers: Record<string, string>): string | undefined {
  if (headers.authorization !== undefined) return headers.authorization;
  const session = sessionCookieOf(headers);
  return session === undefined ? undefined : `Session ${session}`;
}
