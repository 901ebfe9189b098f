import { AppError } from '../platform/errors.ts';
import type { Logger } from '../platform/logger.ts';
import type { HttpResponse } from './types.ts';

/** The one place that turns a thrown error into `{error, code}`; unknown errors become a logged 500. */
export function errorResponse(err: unknown, logger: Logger): HttpResponse {
  if (err instanceof AppError && err.expose) {
    if (err.status >= 500) logger.error('request failed', { err, code: err.code });
    const body: Record<string, unknown> = { error: err.message, code: err.code };
    if (err.details && err.details.length > 0) body.details = err.details;
    return jsonResponse(err.status, body, err.headers);
  }
  logger.error('unhandled error', { err });
  return jsonResponse(500, { error: 'internal server error', code: 'INTERNAL' });
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
