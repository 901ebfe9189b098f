import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from './schema';

/**
 * The console's only way to the server: the public API on the same origin, typed by the types
 * generated from its OpenAPI document (`npm run api:types`). The credential is set by the session.
 */

export type Schemas = components['schemas'];

/** One entry of a VALIDATION_ERROR's `details`: where and what. */
export interface ErrorDetail {
  path: string;
  message: string;
}

/** An API answer outside 2xx, carrying the API's `{error, code, details}` in words. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: ErrorDetail[] = [],
    /** For 429 RATE_LIMITED: the seconds the API asked to wait (Retry-After). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/**
 * How the console proves who it is: an API key sent as `Authorization: Bearer` (the operators'
 * key sign-in), or the session cookie (HttpOnly: the browser sends it, this code never sees it)
 * with the session's CSRF token on every write. Never both: with a cookie session no
 * Authorization header is sent.
 */
export type Credential = { kind: 'key'; key: string } | { kind: 'cookie'; csrfToken: string };

let credential: Credential | undefined;
let onUnauthorized: (() => void) | undefined;

/** Sets the credential the console sends and what to do when the API answers 401. */
export function setCredential(next: Credential | undefined, unauthorized?: () => void): void {
  credential = next;
  onUnauthorized = unauthorized;
}

/** The headers that authenticate a request of `method` (no Authorization header for a cookie session). */
export function credentialHeaders(method: string, cred = credential): Record<string, string> {
  if (cred?.kind === 'key') return { Authorization: `Bearer ${cred.key}` };
  if (cred?.kind === 'cookie' && !['GET', 'HEAD'].includes(method.toUpperCase()))
    return { 'X-CSRF-Token': cred.csrfToken };
  return {};
}

const auth: Middleware = {
  onRequest({ request }) {
    for (const [name, value] of Object.entries(credentialHeaders(request.method)))
      request.headers.set(name, value);
    return request;
  },
  onResponse({ response }) {
    if (response.status === 401) onUnauthorized?.();
    return response;
  },
};

// Same-origin with cookies: the session cookie rides along; a key session carries its header instead.
export const api = createClient<paths>({
  baseUrl: globalThis.location?.origin ?? '',
  credentials: 'same-origin',
});
api.use(auth);

/** What a person is told of a server failure: the API says nothing more of it ("internal error"). */
const SERVER_FAILED = 'Something went wrong on the server. Try again in a moment.';

/** Turns an error body (or its absence) into an ApiError. */
export function toApiError(status: number, body: unknown, headers?: Headers): ApiError {
  const retryAfter = Number(headers?.get('retry-after'));
  const wait = Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : undefined;
  if (status >= 500) return new ApiError(status, 'INTERNAL', SERVER_FAILED, [], wait);
  if (body && typeof body === 'object' && 'error' in body) {
    const b = body as { error?: unknown; code?: unknown; details?: unknown };
    const details = Array.isArray(b.details) ? (b.details as ErrorDetail[]) : [];
    return new ApiError(status, String(b.code ?? 'ERROR'), String(b.error), details, wait);
  }
  return new ApiError(status, 'ERROR', `The server refused the request (HTTP ${status}).`);
}

/**
 * The body of a successful answer, or a thrown ApiError: what TanStack Query's queryFn and
 * mutationFn want. Use as `must(api.GET('/v1/checks/{id}', { params: { path: { id } } }))`.
 */
export async function must<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let result: { data?: T; error?: unknown; response: Response };
  try {
    result = await call;
  } catch {
    // The browser's own words ("Failed to fetch") say nothing more to a person.
    throw new ApiError(0, 'NETWORK', 'The server could not be reached. Check your connection and try again.');
  }
  if (!result.response.ok) throw toApiError(result.response.status, result.error, result.response.headers);
  return result.data as T;
}

/** The messages of an ApiError's details keyed by field path (for showing errors at the field). */
export function fieldErrors(error: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (error instanceof ApiError) for (const d of error.details) out[d.path] ??= d.message;
  return out;
}

/** Reads are retried after a 429 as the API asks (up to 3 times), after a network failure twice; never after another 4xx. */
export function shouldRetry(failures: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status === 429) return failures < 3;
  return failures < 2 && !(error instanceof ApiError && error.status >= 400);
}

/** The wait before retry `attempt`: Retry-After for a 429 (at most 10 s), else 1 s, 2 s, 4 s. */
export function retryDelay(attempt: number, error: unknown): number {
  if (error instanceof ApiError && error.retryAfterSeconds !== undefined)
    return Math.min(10_000, Math.max(250, error.retryAfterSeconds * 1000));
  return Math.min(4_000, 1_000 * 2 ** attempt);
}
