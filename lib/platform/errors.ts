/** One closed set of application errors; exactly one place per transport maps them to a response. */

export interface ErrorDetail {
  path: string;
  message: string;
}

interface AppErrorOptions {
  details?: ErrorDetail[];
  headers?: Record<string, string>;
  cause?: unknown;
}

/**
 * Base class: a machine `code` and an HTTP `status`. Like middy's http errors, only client errors
 * (`status < 500`) are exposed: their message reaches the caller; anything else becomes a generic 500.
 */
export class AppError extends Error {
  override name = 'AppError';
  readonly code: string;
  readonly status: number;
  readonly details: ErrorDetail[] | undefined;
  readonly headers: Record<string, string>;
  readonly expose: boolean;

  constructor(code: string, status: number, message: string, options: AppErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.code = code;
    this.status = status;
    this.details = options.details;
    this.headers = options.headers ?? {};
    this.expose = status < 500;
  }
}

/** A subclass of AppError, built with `A` (its message). */
type ErrorClass<A extends unknown[]> = new (...args: A) => AppError;

/**
 * An error class of one code and status whose message is the thrower's: required, or optional with
 * `fallback` given. The class is named `name` (its `name` and its constructor's), as a class written
 * out would be.
 */
function errorClass(name: string, code: string, status: number): ErrorClass<[message: string]>;
function errorClass(
  name: string,
  code: string,
  status: number,
  fallback: string,
): ErrorClass<[message?: string]>;
function errorClass(name: string, code: string, status: number, fallback?: string) {
  const named = class extends AppError {
    override name = name;
    constructor(message = fallback ?? '') {
      super(code, status, message);
    }
  };
  Object.defineProperty(named, 'name', { value: name });
  return named;
}

export class UnauthorizedError extends AppError {
  override name = 'UnauthorizedError';
  constructor(message = 'missing or invalid API key') {
    super('UNAUTHORIZED', 401, message, { headers: { 'WWW-Authenticate': 'Bearer' } });
  }
}

export class AccountDisabledError extends AppError {
  override name = 'AccountDisabledError';
  constructor() {
    super('ACCOUNT_DISABLED', 403, 'this account has been disabled');
  }
}

export const ReadOnlyError = errorClass('ReadOnlyError', 'READ_ONLY', 403, 'this API key is read-only');
export type ReadOnlyError = InstanceType<typeof ReadOnlyError>;

export const ForbiddenError = errorClass('ForbiddenError', 'FORBIDDEN', 403, 'your role does not allow this');
export type ForbiddenError = InstanceType<typeof ForbiddenError>;

export class NotFoundError extends AppError {
  override name = 'NotFoundError';
  constructor(what = 'resource') {
    super('NOT_FOUND', 404, `${what} not found`);
  }
}

/** At most this many details reach the caller; one more entry counts the rest. */
const MAX_ERROR_DETAILS = 20;
const MAX_DETAIL_TEXT = 200;
const MAX_MESSAGE_TEXT = 1000;

/** Text cut to `max` characters: messages echo user input (field names, paths) and must stay small. */
export function clipText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function boundedDetails(details: ErrorDetail[]): ErrorDetail[] {
  const shown = details.slice(0, MAX_ERROR_DETAILS).map((d) => ({
    path: clipText(d.path, MAX_DETAIL_TEXT),
    message: clipText(d.message, MAX_DETAIL_TEXT),
  }));
  const rest = details.length - shown.length;
  if (rest > 0) shown.push({ path: '…', message: `${rest} more issue${rest === 1 ? '' : 's'} not shown` });
  return shown;
}

/** 400: the message and details are bounded (details capped, texts clipped) whatever the input. */
export class ValidationError extends AppError {
  override name = 'ValidationError';
  constructor(message: string, details: ErrorDetail[] = [], cause?: unknown) {
    super('VALIDATION_ERROR', 400, clipText(message, MAX_MESSAGE_TEXT), {
      details: boundedDetails(details),
      cause,
    });
  }

  /** A validation error about one named field. */
  static field(path: string, message: string): ValidationError {
    return new ValidationError(`${path}: ${message}`, [{ path, message }]);
  }
}

export const ConflictError = errorClass('ConflictError', 'CONFLICT', 409);
export type ConflictError = InstanceType<typeof ConflictError>;

export const LimitExceededError = errorClass('LimitExceededError', 'LIMIT_EXCEEDED', 403);
export type LimitExceededError = InstanceType<typeof LimitExceededError>;

export const LogLimitError = errorClass(
  'LogLimitError',
  'LOG_LIMIT',
  409,
  'the execution already holds 1,000 log lines',
);
export type LogLimitError = InstanceType<typeof LogLimitError>;

export class PayloadTooLargeError extends AppError {
  override name = 'PayloadTooLargeError';
  constructor(limitBytes: number) {
    super('PAYLOAD_TOO_LARGE', 413, `request body is larger than ${limitBytes} bytes`);
  }
}

/** 429: `Retry-After` in whole seconds (at least 1), plus any RateLimit-* headers of the limit hit. */
export class RateLimitedError extends AppError {
  override name = 'RateLimitedError';
  constructor(
    retryAfterSeconds: number,
    options: { message?: string; headers?: Record<string, string> } = {},
  ) {
    super('RATE_LIMITED', 429, options.message ?? 'too many requests', {
      headers: { ...options.headers, 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
    });
  }
}

export class MethodNotAllowedError extends AppError {
  override name = 'MethodNotAllowedError';
  /** `textHeaders`: the path's API answers in text (lib/http/requests/error-response.ts), with these headers. */
  constructor(allowed: string[], textHeaders?: Record<string, string>) {
    super('METHOD_NOT_ALLOWED', 405, textHeaders ? 'method not allowed' : 'method not allowed on this path', {
      headers: { ...textHeaders, Allow: allowed.join(', ') },
    });
  }
}
