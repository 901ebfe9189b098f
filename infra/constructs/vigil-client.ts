/**
 * The Vigil API as the custom resource provider calls it (infra/constructs/provider-handler.ts):
 * JSON over HTTPS with the tenant's API key, each attempt bounded by a timeout, and 429 and 5xx
 * answers (and network failures) retried a bounded number of times.
 *
 * The retry loop is the AWS SDK's standard pattern written out (exponential backoff with full
 * jitter, capped, a server's Retry-After honoured): the project has no retry library of its own
 * (node_modules/retry is a transitive development dependency without types), and the loop is
 * short enough to read whole.
 */

/** How a request leaves: `fetch` in Lambda, an adapter onto the Lambda harness in tests. */
export type Transport = (url: string, init: RequestInit) => Promise<Response>;

export interface VigilClientOptions {
  /** The API's base URL, e.g. `https://vigil.example.com` (no trailing path). */
  url: string;
  /** The API key, sent as a Bearer token and never written into an error or a log line. */
  key: string;
  transport?: Transport;
  /** Each attempt's bound. @default 10 seconds */
  timeoutMs?: number;
  /** Attempts in all, the first included. @default 5 */
  attempts?: number;
  /** Waits between attempts (tests pass one that does not wait). */
  sleep?: (ms: number) => Promise<void>;
}

/** One answer: its status and parsed JSON body (undefined when empty or not JSON). */
export interface VigilAnswer {
  status: number;
  body: unknown;
}

export type VigilCall = (method: string, path: string, body?: unknown) => Promise<VigilAnswer>;

/** A call that failed for good: the message names the call and the API's error, never the key. */
export class VigilApiError extends Error {
  override name = 'VigilApiError';
  readonly status: number | undefined;
  constructor(message: string, status?: number) {
    super(message);
    this.status = status;
  }
}

const BASE_DELAY_MS = 500;
const MAX_DELAY_MS = 20_000;

const retryable = (status: number) => status === 429 || status >= 500;

/** Seconds (or an HTTP date) of a Retry-After header as milliseconds, capped; undefined when absent. */
function retryAfterMs(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now();
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), MAX_DELAY_MS) : undefined;
}

/** Full jitter: a random wait up to the attempt's exponential ceiling (the AWS SDK's standard mode). */
const backoffMs = (attempt: number) => Math.random() * Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** attempt);

/** The API's own words for a failed answer: `{error, details?}`, or its status. */
export function describeFailure(method: string, path: string, answer: VigilAnswer): string {
  const body = answer.body as { error?: unknown; details?: unknown } | undefined;
  const error = typeof body?.error === 'string' ? body.error : `status ${answer.status}`;
  const details = Array.isArray(body?.details) ? ` ${JSON.stringify(body.details)}` : '';
  return `Vigil ${method} ${path} answered ${answer.status}: ${error}${details}`;
}

export function createVigilClient(options: VigilClientOptions): VigilCall {
  const transport = options.transport ?? fetch;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const attempts = options.attempts ?? 5;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((done) => setTimeout(done, ms)));
  const base = options.url.replace(/\/+$/, '');
  return async (method, path, body) => {
    let lastFailure = '';
    for (let attempt = 0; attempt < attempts; attempt += 1) {
      let response: Response;
      try {
        response = await transport(`${base}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${options.key}`,
            accept: 'application/json',
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        // A timeout or a refused connection: the request may not have reached the API; try again.
        // Only the error's name and message are kept (a transport's message holds no header).
        const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
        lastFailure = `Vigil ${method} ${path} failed: ${reason}`;
        if (attempt + 1 < attempts) await sleep(backoffMs(attempt));
        continue;
      }
      const text = await response.text();
      let parsed: unknown;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      const answer = { status: response.status, body: parsed };
      if (!retryable(response.status)) return answer;
      lastFailure = describeFailure(method, path, answer);
      if (attempt + 1 < attempts)
        await sleep(retryAfterMs(response.headers.get('retry-after')) ?? backoffMs(attempt));
    }
    throw new VigilApiError(`${lastFailure} (after ${attempts} attempts)`);
  };
}
