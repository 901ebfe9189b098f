import { Agent, type Dispatcher, RetryAgent, request } from 'undici';

/** What a ping's answer told: delivered (200/201, as runitor accepts), or why not. */
type PingOutcome = { ok: true; status: number; bodyLimit?: number } | { ok: false; reason: string };

export interface PingerOptions {
  /** The check's ping URL; its query string is kept on every ping. */
  pingUrl: URL;
  /** Sent as `?rid=` on every ping of this run. */
  runId: string;
  timeoutMs: number;
  retries: number;
  userAgent: string;
}

export interface Pinger {
  /** POSTs `<ping URL>/<suffix>` with `body` (text); never throws. */
  ping(suffix: string, body?: string): Promise<PingOutcome>;
  close(): Promise<void>;
}

/** runitor's retriable answers (its RetriableResponseCodes): a later attempt may get through. */
const RETRIED_STATUSES = [408, 429, 500, 502, 503, 504];
/** undici's default network error codes, plus its timeouts (runitor retries timeouts too). */
const RETRIED_ERRORS = [
  'ECONNRESET',
  'ECONNREFUSED',
  'ENOTFOUND',
  'ENETDOWN',
  'ENETUNREACH',
  'EHOSTDOWN',
  'EHOSTUNREACH',
  'EPIPE',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
];

/** The ping URL with `/<suffix>` appended to its path, its query kept and the run id set. */
export function pingEndpoint(pingUrl: URL, suffix: string, runId: string): URL {
  const url = new URL(pingUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${suffix}`;
  url.searchParams.set('rid', runId);
  return url;
}

/**
 * Pings through undici's RetryAgent (backoff 1 s, 2 s, 4 s…; Retry-After honoured up to 30 s) over an
 * agent whose connect, header and body timeouts bound each attempt. Every ping is a POST with a
 * text/plain body, as runitor sends them.
 */
export function createPinger(options: PingerOptions): Pinger {
  const agent = new Agent({
    connect: { timeout: options.timeoutMs },
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
  });
  const dispatcher: Dispatcher = new RetryAgent(agent, {
    maxRetries: options.retries,
    minTimeout: 1000,
    timeoutFactor: 2,
    maxTimeout: 30_000,
    methods: ['POST'],
    statusCodes: RETRIED_STATUSES,
    errorCodes: RETRIED_ERRORS,
  });
  return {
    async ping(suffix, body = '') {
      try {
        const res = await request(pingEndpoint(options.pingUrl, suffix, options.runId), {
          method: 'POST',
          dispatcher,
          headers: { 'content-type': 'text/plain; charset=utf-8', 'user-agent': options.userAgent },
          body,
        });
        const text = (await res.body.text()).trim().slice(0, 200);
        if (res.statusCode !== 200 && res.statusCode !== 201) {
          return { ok: false, reason: `answered ${res.statusCode}${text ? ` ${text}` : ''}` };
        }
        const limit = Number(res.headers['ping-body-limit']);
        return Number.isInteger(limit) && limit > 0
          ? { ok: true, status: res.statusCode, bodyLimit: limit }
          : { ok: true, status: res.statusCode };
      } catch (err) {
        return { ok: false, reason: failureReason(err, options.retries) };
      }
    },
    close: () => dispatcher.close(),
  };
}

function failureReason(err: unknown, retries: number): string {
  const after = retries > 0 ? ` (after up to ${retries + 1} attempts)` : '';
  if (!(err instanceof Error)) return `failed${after}: ${String(err)}`;
  const status = 'statusCode' in err && typeof err.statusCode === 'number' ? err.statusCode : undefined;
  if (status !== undefined) return `answered ${status}${after}`;
  const code = 'code' in err && typeof err.code === 'string' ? err.code : err.name;
  return `failed${after}: ${code}`;
}
