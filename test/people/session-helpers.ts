import { expect } from 'vitest';
import type { ApiHarness, ApiResponse, LocalHarness } from '../support/api-harness.ts';

/** Shared steps of the session tests: set a password, sign in, and send a cookie like the console. */

/** A password the policy accepts (long, not common, not the e-mail). */
export const GOOD_PASSWORD = 'correct horse battery staple 41';

export function setPassword(
  api: ApiHarness,
  key: string,
  body: { password: string; current_password?: string },
): Promise<ApiResponse> {
  return api.request('POST', '/v1/me/password', { key, body });
}

export function signIn(
  api: ApiHarness,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<ApiResponse> {
  return api.request('POST', '/v1/session', { body, headers });
}

/** The session id a sign-in's Set-Cookie carries. */
export function cookieValue(res: ApiResponse): string {
  const header = res.headers['set-cookie'] ?? '';
  const value = /^vigil_session=([^;]*)/.exec(header)?.[1];
  expect(value, `Set-Cookie: ${header}`).toBeDefined();
  return value ?? '';
}

/** Signs in (the password must be set) and answers the raw session id. */
export async function signedIn(api: ApiHarness, email: string, password = GOOD_PASSWORD): Promise<string> {
  const res = await signIn(api, { email, password });
  expect(res.status, res.text).toBe(204);
  return cookieValue(res);
}

/** The Host and Origin of a same-origin console request, for either runtime. */
export function consoleOrigin(api: ApiHarness): Record<string, string> {
  if (api.runtime === 'local') return { origin: new URL((api as LocalHarness).local.url).origin };
  return { host: 'api.example.com', origin: 'https://api.example.com', 'x-forwarded-proto': 'https' };
}

/** A request with the session cookie only (no key): `csrf` adds the console's Origin and X-CSRF-Token. */
export function withCookie(
  api: ApiHarness,
  method: string,
  path: string,
  session: string,
  options: { body?: unknown; csrf?: string; headers?: Record<string, string> } = {},
): Promise<ApiResponse> {
  const csrf = options.csrf === undefined ? {} : { ...consoleOrigin(api), 'x-csrf-token': options.csrf };
  return api.request(method, path, {
    ...(options.body === undefined ? {} : { body: options.body }),
    headers: { cookie: `vigil_session=${session}`, ...csrf, ...options.headers },
  });
}

/** GET /v1/me by cookie: the session's CSRF token. */
export async function csrfOf(api: ApiHarness, session: string): Promise<string> {
  const me = await withCookie(api, 'GET', '/v1/me', session);
  expect(me.status, me.text).toBe(200);
  return me.body.csrf_token;
}
