import { ERROR_STATUS } from '../../lib/http/route-schemas.ts';
import { isApiPath } from '../../lib/local/console-files.ts';
import type { FuzzAnswer, FuzzRequest } from './fuzz-client.ts';

/** What every answer must satisfy, whatever was sent. */
export const LIMITS = {
  /**
   * No answer takes longer: past it, a hang (or an event loop blocked for good). A bound for a hang,
   * not a speed limit: a busy CI machine stretches answers several-fold and no test fails for time
   * alone; how fast the routes answer is measured in bench (docs/performance.md).
   */
  deadlineMs: 15_000,
  /**
   * Routes that hash a password are slow on purpose: scrypt with OWASP's parameters, off the event
   * loop (lib/people/password.ts), one hash running and one waiting per process, the rest 429 at
   * once. An answer waits for at most two hashes: a longer bound for a hang.
   */
  passwordDeadlineMs: 30_000,
  /** An error answer never grows with the input. */
  maxErrorBytes: 64 * 1024,
  /** A sanity bound on success bodies (pages are bounded by their limits). */
  maxSuccessBytes: 8 * 1024 * 1024,
};

function clip(text: string, max = 300): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
}

/** A request in a few lines, for counterexamples (a 1 MiB body is not printed whole). */
export function describeRequest(req: FuzzRequest): string {
  const headers = Object.entries(req.headers)
    .map(([k, v]) => `${k}: ${clip(v, 80)}`)
    .join('; ');
  const body = req.body ? `${req.body.length} bytes: ${clip(req.body.toString('utf8'), 200)}` : 'none';
  return `${req.method} ${clip(req.target, 200)} [${req.note}]\n    headers: ${headers}\n    body: ${body}`;
}

/**
 * A GET or HEAD outside the API (a generated path that left /v1 or /healthz, e.g. `/healthz/..`)
 * is the console's: its errors are plain text pages for a browser, not the API's JSON.
 */
const isConsole = (req: FuzzRequest) =>
  (req.method === 'GET' || req.method === 'HEAD') && !isApiPath(req.target);

/**
 * A public status page's own 404 (lib/status-pages/public/public-routes.ts): an HTML page or an SVG badge,
 * as a browser wants; so is an email confirmation link's (lib/notify/email/email-confirm-routes.ts),
 * a report e-mail's unsubscribe link's (lib/reports/routes.ts) and an acknowledgement link's
 * (lib/ack-links/ack-link-routes.ts).
 */
const isPublicPageAnswer = (req: FuzzRequest, answer: FuzzAnswer) =>
  ['/p/', '/v1/email-confirmations/', '/v1/reports/unsubscribe/', '/a/'].some((prefix) =>
    req.target.startsWith(prefix),
  ) && /^(text\/html|image\/svg\+xml)/.test(String(answer.headers['content-type']));

/**
 * A ping URL's own refusal: Healthchecks' Pinging API answers in short text (`not found`,
 * `invalid url format`), which its clients read (docs/heartbeats.md). The router's refusals on the
 * same paths (413, 405) keep the API's JSON shape.
 */
const isPingText = (req: FuzzRequest, answer: FuzzAnswer) =>
  req.target.startsWith('/ping/') && String(answer.headers['content-type']).startsWith('text/plain');

const isMcp = (req: FuzzRequest) => /^\/v1\/mcp(?:[/?#]|$)/.test(req.target);

/** `{jsonrpc: "2.0", error: {code: <integer>, message: <string>}, id}`. */
function isJsonRpcError(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const { jsonrpc, error } = body as { jsonrpc?: unknown; error?: { code?: unknown; message?: unknown } };
  return (
    jsonrpc === '2.0' &&
    typeof error === 'object' &&
    error !== null &&
    Number.isInteger(error.code) &&
    typeof error.message === 'string'
  );
}

/** The routes that verify or set a password (the body is read whatever its Content-Type). */
const HASHES_PASSWORD = new Set([
  '/v1/session',
  '/v1/me/password',
  '/v1/settings/users/accept',
  '/v1/password-reset/confirm',
]);

/** The route a request's target names: without its query, and without a trailing slash (the router drops it). */
const routePath = (req: FuzzRequest) => (req.target.split('?')[0] ?? '').replace(/(?<=.)\/+$/, '');

const deadlineOf = (req: FuzzRequest) =>
  req.method === 'POST' && HASHES_PASSWORD.has(routePath(req))
    ? LIMITS.passwordDeadlineMs
    : LIMITS.deadlineMs;

/** The ways `answer` breaks the properties (empty when it keeps them all). */
export function violations(req: FuzzRequest, answer: FuzzAnswer): string[] {
  if (answer.failure) return [answer.failure];
  const found: string[] = [];
  if (answer.status >= 500) found.push(`answered ${answer.status}`);
  if (answer.ms > deadlineOf(req)) found.push(`took ${Math.round(answer.ms)} ms`);
  if (req.method === 'HEAD' || answer.status === 204) return found;
  const size = Buffer.byteLength(answer.body);
  if (answer.status >= 400) {
    if (size >= LIMITS.maxErrorBytes) found.push(`error body of ${size} bytes`);
    if (isConsole(req) || isPublicPageAnswer(req, answer) || isPingText(req, answer)) return found;
    let parsed: unknown;
    try {
      parsed = JSON.parse(answer.body);
    } catch {
      found.push(`error body is not JSON: ${clip(answer.body, 100)}`);
      return found;
    }
    // MCP clients read JSON-RPC: /v1/mcp's own errors are JSON-RPC error objects (the router's,
    // such as 405 for another method, keep the API's shape).
    if (isMcp(req) && isJsonRpcError(parsed)) return found;
    const { error, code } = (parsed ?? {}) as { error?: unknown; code?: unknown };
    if (typeof error !== 'string' || typeof code !== 'string') found.push('error body lacks {error, code}');
    else if (ERROR_STATUS[code as keyof typeof ERROR_STATUS] !== answer.status)
      found.push(`code ${code} with status ${answer.status}`);
  } else if (!String(answer.headers['content-type']).startsWith('text/event-stream')) {
    if (size >= LIMITS.maxSuccessBytes) found.push(`success body of ${size} bytes`);
    if (String(answer.headers['content-type']).startsWith('application/json')) {
      try {
        JSON.parse(answer.body);
      } catch {
        found.push('success body is not JSON');
      }
    }
  }
  return found;
}

/** The runtime's log lines of one request (its stack, for a 500), found by the x-request-id it answered with. */
export function logsOf(answer: FuzzAnswer, logs: readonly string[]): string[] {
  const id = answer.headers['x-request-id'];
  if (typeof id !== 'string') return [];
  return logs.filter((line) => line.includes(id)).map((line) => clip(line, 2000));
}
