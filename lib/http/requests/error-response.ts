import { AppError } from '../../platform/errors.ts';
import type { Logger } from '../../platform/logger.ts';
import type { HttpResponse } from '../types.ts';

/** The body of every 500: nothing of the error itself reaches the caller. */
export const INTERNAL_ERROR_BODY = { error: 'internal error', code: 'INTERNAL' } as const;

/**
 * The one place that turns a thrown error into `{error, code}`: exposed (client) errors with their
 * message and details; anything else (an unknown error, a 5xx AppError) becomes a logged generic 500.
 */
export function errorResponse(err: unknown, logger: Logger): HttpResponse {
  if (err instanceof AppError && err.expose) {
    // An API that answers in text (the Pinging API's 405) said so in the error's headers.
    if (err.headers['content-type']?.startsWith('text/plain'))
      return { status: err.status, headers: err.headers, body: err.message };
    const body: Record<string, unknown> = { error: err.message, code: err.code };
    if (err.details && err.details.length > 0) body.details = err.details;
    return jsonResponse(err.status, body, err.headers);
  }
  logger.error('unhandled error', { err });
  return jsonResponse(500, INTERNAL_ERROR_BODY);
}

/** A JSON response with the standard headers. */
export function jsonResponse(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): HttpResponse {
  if (status === 204 || body === undefined) return { status, headers, body: '' };
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    body: JSON.stringify(body),
  };
}
