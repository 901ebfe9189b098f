import type { IncomingHttpHeaders } from 'node:http';
import type { LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import { rootCertificates } from 'node:tls';
import { type CancelSignal, withDeadline } from './egress-deadline.ts';
import { TooManyRedirectsError } from './egress-errors.ts';
import {
  allowedLiteral,
  createGuardedLookup,
  type GuardOptions,
  parseHttpUrl,
  type Resolve,
} from './egress-guard.ts';
import type { HopTimings, Http1Request, Http1Response } from './http1-client.ts';

/** One hop as a transport gets it: the request, and the guard it is judged by. */
export interface TransportRequest extends Http1Request {
  /**
   * The guard of this hop (`requireAllowListed` set for a clear-text channel hop): what `lookup`
   * resolves through, and what a pooled transport resolves and checks the host with itself.
   */
  guard: GuardOptions;
}

/**
 * What sends one hop: on a fresh connection, undici (the default) or the hand-written
 * lib/egress/http1-client.ts that probes use because it costs less than half the CPU per request
 * (docs/performance.md, "HTTP client for probes"); or on a kept-alive connection of the process's
 * pools (lib/egress/egress-pool.ts), which channels and actions get from their composition.
 */
export type HttpTransport = (req: TransportRequest) => Promise<Http1Response>;

/** Outbound TLS trust, name resolution and transport of channels and actions, as compositions pass them. */
export interface EgressSettings {
  ca?: string[];
  resolve?: Resolve;
  /** The process's kept-alive pools (createEgressPool().transport); a fresh connection per send without. */
  transport?: HttpTransport;
}

/** One outbound HTTP call, as probes, channels and actions make it. */
export interface HttpRequestOptions {
  url: string;
  /** GET by default. */
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Budget for the whole call: resolution, connects, every redirect hop and the body read. */
  timeoutMs: number;
  /** Redirects followed before TooManyRedirectsError; 5 by default (0: any redirect fails). */
  maxRedirects?: number;
  /** Body bytes kept (reading stops there); 64 KiB by default, 0 to stop after the headers. */
  maxBodyBytes?: number;
  /** Whether private, loopback, link-local and reserved destinations are allowed. */
  allowPrivate: boolean;
  /** CIDRs exempt from the private/reserved denial (VIGIL_EGRESS_ALLOW); never cloud metadata. */
  allow?: readonly string[];
  /**
   * An http:// URL (any hop) may reach only addresses in `allow`; https:// is judged as usual.
   * Channels set it: their alerts travel in clear text only inside the operator's own ranges.
   */
  httpOnlyToAllowList?: boolean;
  signal?: AbortSignal;
  /** Resolver for host names; the system resolver by default. */
  resolve?: GuardOptions['resolve'];
  /** Extra trusted CA certificates (PEM), added to the system ones. */
  ca?: string[];
  /** false: any certificate is accepted (a check's tls.skip_verify); the probe transports honour it, pools do not. */
  rejectUnauthorized?: boolean;
  /**
   * How each hop is sent: a pool's, undiciRequest (a fresh connection) or a probe's client. Required:
   * a default here would bundle undici into every function that probes (the worker), which never needs it.
   */
  transport: HttpTransport;
  /** Filled with the last hop's phase marks (lib/egress/http1-message.ts); absent: none are taken. */
  timings?: HopTimings;
}

/** What came back: the final response after redirects. */
export interface HttpResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** At most `maxBodyBytes` of the body. */
  bodyPrefix: Buffer;
  latencyMs: number;
  redirects: number;
  finalUrl: string;
}

interface Hop {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: string | Buffer | undefined;
}

interface HopResult {
  status: number;
  headers: IncomingHttpHeaders;
  bodyPrefix: Buffer;
}

const DEFAULT_MAX_BODY_BYTES = 64 * 1024;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/**
 * What a redirect to another origin keeps of the caller's headers: nothing that may be a secret.
 * A check's headers are sent only to the origin they were stored with (docs/api.md "Checks"), and
 * a custom header (X-Api-Key) is as much a credential as Authorization.
 */
const CROSS_ORIGIN_HEADERS = new Set(['user-agent', 'accept', 'accept-language', 'content-type']);
const BODY_HEADERS = new Set(['content-type', 'content-length', 'content-encoding', 'transfer-encoding']);

/**
 * Makes an HTTP(S) request through the SSRF guard (on a fresh connection unless `transport` is a
 * pool's, which resolves and checks the host per hop itself), following redirects
 * (each hop re-checked) and keeping a bounded body prefix. Throws EgressDeniedError,
 * TimeoutError, ConnectionError, TooManyRedirectsError or InvalidUrlError.
 */
export async function httpRequest(options: HttpRequestOptions): Promise<HttpResponse> {
  const started = performance.now();
  const maxRedirects = options.maxRedirects ?? 5;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const guard: GuardOptions = {
    allowPrivate: options.allowPrivate,
    allow: options.allow,
    resolve: options.resolve,
  };
  const lookup = createGuardedLookup(guard);
  // Built only when a hop is http:// and the caller keeps clear text to the allow-list.
  let cleartext: { guard: GuardOptions; lookup: LookupFunction } | undefined;
  const ca = trustedCas(options.ca);
  const insecure = options.rejectUnauthorized === false;
  const transport = options.transport;
  let hop: Hop = {
    url: parseHttpUrl(options.url),
    method: (options.method ?? 'GET').toUpperCase(),
    headers: withDefaults(options.headers ?? {}),
    body: options.body,
  };
  return withDeadline(
    options.timeoutMs,
    async (signal) => {
      for (let redirects = 0; redirects <= maxRedirects; redirects++) {
        const clear = options.httpOnlyToAllowList === true && hop.url.protocol === 'http:';
        // Names are checked inside `lookup` on connect; Node skips `lookup` for IP literals.
        allowedLiteral(hop.url.hostname, guard.allowPrivate, guard.allow, clear);
        if (clear && !cleartext) {
          const strict = { ...guard, requireAllowListed: true };
          cleartext = { guard: strict, lookup: createGuardedLookup(strict) };
        }
        const judged = clear && cleartext ? cleartext : { guard, lookup };
        const timings = options.timings;
        const result = await send(hop, { transport, ...judged, ca, insecure, signal, maxBodyBytes, timings });
        const location = REDIRECT_STATUSES.has(result.status) ? result.headers.location : undefined;
        if (location === undefined) {
          const latencyMs = Math.round(performance.now() - started);
          return { ...result, latencyMs, redirects, finalUrl: hop.url.toString() };
        }
        hop = nextHop(hop, result.status, location);
      }
      throw new TooManyRedirectsError(maxRedirects);
    },
    options.signal,
  );
}

/** The system CAs plus the caller's, one array per caller's array: pools tell trust apart by it. */
const caBundles = new WeakMap<readonly string[], string[]>();

function trustedCas(extra: readonly string[] | undefined): string[] | undefined {
  if (!extra?.length) return undefined;
  let bundle = caBundles.get(extra);
  if (!bundle) {
    bundle = [...rootCertificates, ...extra];
    caBundles.set(extra, bundle);
  }
  return bundle;
}

function withDefaults(headers: Record<string, string>): Record<string, string> {
  const names = Object.keys(headers).map((h) => h.toLowerCase());
  return names.includes('user-agent') ? { ...headers } : { 'user-agent': 'vigil', ...headers };
}

/** The request a redirect asks for: 303 (and 301/302 after POST) become GET without a body. */
function nextHop(hop: Hop, status: number, location: string): Hop {
  const url = parseHttpUrl(new URL(location, hop.url));
  const toGet =
    (status === 303 && hop.method !== 'HEAD') ||
    ((status === 301 || status === 302) && hop.method === 'POST');
  const crossOrigin = url.origin !== hop.url.origin;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(hop.headers)) {
    const lower = name.toLowerCase();
    if (crossOrigin && !CROSS_ORIGIN_HEADERS.has(lower)) continue;
    if (toGet && BODY_HEADERS.has(lower)) continue;
    headers[name] = value;
  }
  return { url, method: toGet ? 'GET' : hop.method, headers, body: toGet ? undefined : hop.body };
}

interface SendContext {
  transport: HttpTransport;
  guard: GuardOptions;
  lookup: LookupFunction;
  ca: string[] | undefined;
  insecure: boolean;
  signal: CancelSignal;
  maxBodyBytes: number;
  timings: HopTimings | undefined;
}

/** One hop; a redirect's body is never read, only its Location is needed. */
function send(hop: Hop, ctx: SendContext): Promise<HopResult> {
  return ctx.transport({
    url: hop.url,
    method: hop.method,
    headers: hop.headers,
    body: hop.body,
    lookup: ctx.lookup,
    guard: ctx.guard,
    ca: ctx.ca,
    ...(ctx.insecure ? { rejectUnauthorized: false } : {}),
    signal: ctx.signal,
    maxBodyBytes: (status) => (REDIRECT_STATUSES.has(status) ? 0 : ctx.maxBodyBytes),
    ...(ctx.timings ? { timings: ctx.timings } : {}),
  });
}
