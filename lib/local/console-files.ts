import { existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import sirv from 'sirv';
import { browserRefusal, hostPolicyOf } from '../http/origin-policy.ts';
import { CONSOLE_ASSET_CACHE, CONSOLE_ASSETS_PREFIX, CONSOLE_SECURITY_HEADERS } from '../http/policies.ts';

/** The built web console (web/dist) served at `/`; everything under /v1 stays the API's. */
export interface ConsoleFiles {
  /** The directory the files are read from. */
  readonly dir: string;
  /** Whether index.html was there when the server started (the runtime logs its absence once). */
  readonly built: boolean;
  /** Answers a GET or HEAD of a console path: a file, index.html for a client route, or a 404/503 page. */
  serve(req: IncomingMessage, res: ServerResponse): void;
}

/** What the console answers while web/dist has no index.html: the API works, the console needs a build. */
const CONSOLE_NOT_BUILT =
  'The Vigil console is not built.\n\n' +
  'Build it from the repository root with `npm run build:web` (or set VIGIL_CONSOLE_DIR to a built\n' +
  'console), then reload this page. The API is served under /v1 either way.\n';

/**
 * Whether a request URL belongs to the API router: /v1, anything under /v1/, /healthz, /ping/, /p/,
 * /ical/, /a/, /oauth/ and /.well-known/oauth-*. A
 * prefix check only, so an API request pays nothing more for the console.
 */
export function isApiPath(url: string): boolean {
  if (url.startsWith('/v1')) return url.length === 3 || url[3] === '/' || url[3] === '?';
  if (url.startsWith('/healthz')) return url.length === 8 || url[8] === '?';
  // The process's Prometheus metrics (lib/local/process-metrics.ts).
  if (url.startsWith('/metrics')) return url.length === 8 || url[8] === '?';
  // Ping URLs (/ping/<token>, /ping/<token>/fail) are the API's even on GET, which cron curls send.
  if (url.startsWith('/ping/')) return true;
  // Public status pages (/p/<slug>, its status.json and badge.svg) are rendered by the API.
  if (url.startsWith('/p/')) return true;
  // On-call calendar feeds (/ical/<token>.ics) are the API's: calendars fetch them with GET.
  if (url.startsWith('/ical/')) return true;
  // Acknowledgement links (/a/<token>) a page's message carries are the API's.
  if (url.startsWith('/a/')) return true;
  // The OAuth authorization server for MCP clients and its metadata (docs/auth.md).
  if (url.startsWith('/oauth/') || url.startsWith('/.well-known/oauth-')) return true;
  // Absolute-form and asterisk-form request targets are the router's to judge, never a file.
  return url[0] !== '/';
}

/**
 * Serves the console from `dir` with sirv, under the host names of `hostConfig` only (403 otherwise). Files are looked up per request (sirv's dev mode), so a
 * rebuild while the server runs (new hashed names, index.html changed in place) is served as it
 * is, never from a listing taken at start. Client routes (/status, /entities/a/b, /accept?token=…)
 * answer index.html; a missing file with an extension, or anything under /assets/, is a 404.
 */
export function createConsoleFiles(
  dir: string,
  hostConfig: Parameters<typeof hostPolicyOf>[0] = { publicUrl: undefined, allowedHosts: [] },
): ConsoleFiles {
  const root = resolve(dir);
  const hosts = hostPolicyOf(hostConfig);
  const index = join(root, 'index.html');
  const files = sirv(root, {
    dev: true,
    etag: true,
    single: true,
    // Hashed assets never fall back to index.html: a stale name is a 404, not HTML cached for a year.
    ignores: [`^${CONSOLE_ASSETS_PREFIX}`],
  });

  const serve = (req: IncomingMessage, res: ServerResponse) => {
    for (const [name, value] of Object.entries(CONSOLE_SECURITY_HEADERS)) res.setHeader(name, value);
    // A DNS-rebinding page (its own name resolved to this server) must not read the console or
    // its assets as same-origin: only the host names the server is known by get them.
    const refusal = browserRefusal(headersOf(req), hosts);
    if (refusal)
      return answer(
        res,
        403,
        `Forbidden: ${refusal === 'host' ? 'unknown Host' : 'cross-origin request'}.\n`,
      );
    const path = safePath(req.url ?? '/');
    if (path === undefined) return answer(res, 404, 'Not found.\n');
    // Set before sirv answers, so a 304 carries it too (sirv keeps a header already set).
    res.setHeader('cache-control', path.startsWith(CONSOLE_ASSETS_PREFIX) ? CONSOLE_ASSET_CACHE : 'no-cache');
    // A file removed between sirv's stat and its read (a rebuild) must cost this response, not the process.
    res.once('pipe', (source: Readable) => source.once('error', () => res.destroy()));
    files(req, res, () => {
      if (existsSync(index)) answer(res, 404, 'Not found.\n');
      else answer(res, 503, CONSOLE_NOT_BUILT);
    });
  };

  return { dir: root, built: existsSync(index), serve };
}

/**
 * The decoded path of a request URL, or undefined when it could name something outside the
 * directory or a hidden file: a `.` segment start (`..`, `.env`), a backslash or a NUL, in any
 * encoding. sirv also refuses paths outside its root; this is the second lock.
 */
function safePath(url: string): string | undefined {
  const end = url.indexOf('?');
  let path: string;
  try {
    path = decodeURIComponent(end === -1 ? url : url.slice(0, end));
  } catch {
    return undefined;
  }
  if (path.includes('/.') || path.includes('\\') || path.includes('\0')) return undefined;
  return path;
}

/** The request's headers as the Host policy reads them (one value each). */
function headersOf(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of ['host', 'origin', 'x-forwarded-proto'] as const) {
    const value = req.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  return headers;
}

function answer(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    'cache-control': 'no-store',
  });
  res.end(text);
}
