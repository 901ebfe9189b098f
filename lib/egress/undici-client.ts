/**
 * The same one-request exchange as lib/egress/http1-client.ts, sent with undici: by default a
 * Client of its own per request (a fresh connection through the guarded lookup, SNI and CA as
 * given), closed as soon as the status, headers and the bounded body prefix are known; channels
 * and actions send the same exchange on kept-alive pools (lib/egress/egress-pool.ts).
 */

import type { IncomingHttpHeaders } from 'node:http';
import type * as Undici from 'undici';
import { toEgressError } from './egress-errors.ts';
import type { Http1Request, Http1Response } from './http1-client.ts';
import { encodeRequest } from './http1-request-head.ts';
import { addHeader } from './http1-response-reader.ts';

let undici: Promise<typeof Undici> | undefined;

/**
 * undici, imported on the first send instead of at start. Every state change is a notify job and
 * an action job, but only a delivery to an HTTP channel and an action's run send over HTTP: the
 * notifier and the action worker leave undici out of their bundles and load it from beside them
 * (LAZY_MODULES, infra/node-function.ts), so a container that only evaluates, or delivers through
 * SES, SNS or NATS, never loads it, and one that sends loads it on its first send. Elsewhere
 * esbuild bundles it as it would a static import, evaluated on first use.
 */
export function loadUndici(): Promise<typeof Undici> {
  undici ??= import('undici');
  return undici;
}

/** Request headers undici refuses from a caller: it frames and manages the connection itself. */
const FRAMING = new Set([
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'expect',
]);

/**
 * Sends one request with undici on a connection of its own and resolves the final response with
 * at most `maxBodyBytes` of its body. Throws (before connecting) for a method, path or header that
 * could not be sent safely, as http1Request does; rejects with egress errors for the connection
 * and the response, and with the signal's reason on abort.
 */
export async function undiciRequest(req: Http1Request): Promise<Http1Response> {
  const { url, signal } = req;
  // The same checks on method, path and headers as the hand-written client (and the SNI rule).
  const { servername } = encodeRequest(req);
  signal?.throwIfAborted();
  const { Client } = await loadUndici();
  signal?.throwIfAborted();
  const client = new Client(url.origin, {
    connect: {
      lookup: req.lookup,
      ca: req.ca,
      ...(servername ? { servername } : {}),
      ...(req.rejectUnauthorized === false ? { rejectUnauthorized: false } : {}),
    },
    pipelining: 0,
  });
  try {
    return await undiciExchange(client, req);
  } finally {
    client.destroy().catch(() => undefined);
  }
}

/**
 * The request itself on `dispatcher` (a Client of its own, or a kept-alive Pool of
 * lib/egress/egress-pool.ts): status, headers and the bounded body prefix, undici's errors
 * mapped to egress errors. A body read to its end leaves a pooled connection reusable; one cut at
 * the prefix closes it.
 */
export async function undiciExchange(
  dispatcher: Undici.Dispatcher,
  req: Http1Request,
): Promise<Http1Response> {
  const { url, signal } = req;
  try {
    const res = await dispatcher.request({
      method: req.method as 'GET',
      path: `${url.pathname}${url.search}`,
      headers: requestHeaders(req),
      body: req.body ?? (req.method === 'GET' || req.method === 'HEAD' ? null : ''),
      responseHeaders: 'raw',
      ...(signal ? { signal: signal as AbortSignal } : {}),
    });
    const limit =
      typeof req.maxBodyBytes === 'function' ? req.maxBodyBytes(res.statusCode) : req.maxBodyBytes;
    return {
      status: res.statusCode,
      headers: nodeHeaders(res.headers),
      bodyPrefix: await prefix(res.body, limit),
    };
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    const { errors } = await loadUndici();
    throw err instanceof errors.InvalidArgumentError
      ? err
      : toEgressError(undiciCause(err, errors), url.hostname);
  }
}

function requestHeaders(req: Http1Request): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (!FRAMING.has(name.toLowerCase())) headers[name] = value;
  }
  const { url } = req;
  if (url.username && !Object.keys(headers).some((h) => h.toLowerCase() === 'authorization')) {
    const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
    headers.authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
  }
  return headers;
}

/** The raw header list (name, value, ...) as node:http's headers object. */
function nodeHeaders(raw: unknown): IncomingHttpHeaders {
  const headers: IncomingHttpHeaders = Object.create(null);
  const list = raw as Buffer[];
  for (let i = 0; i + 1 < list.length; i += 2) {
    addHeader(headers, String(list[i]).toLowerCase(), String(list[i + 1]));
  }
  return headers;
}

/** Reads up to `limit` body bytes, then stops reading; a body cut short after the prefix is fine. */
async function prefix(body: Undici.Dispatcher.ResponseData['body'], limit: number): Promise<Buffer> {
  if (limit <= 0) {
    // Destroying the stream makes it emit an abort error: expected here, so heard and dropped.
    body.on('error', () => undefined);
    body.destroy();
    return Buffer.alloc(0);
  }
  const chunks: Buffer[] = [];
  let length = 0;
  try {
    for await (const chunk of body) {
      chunks.push(chunk);
      length += chunk.length;
      if (length >= limit) break;
    }
  } catch (err) {
    if (length < limit) throw err;
  }
  return Buffer.concat(chunks, length).subarray(0, limit);
}

/**
 * undici's own errors in the system and llhttp codes egress maps: a socket undici saw close early
 * is a reset, a response llhttp could not parse (or whose head is too large) an invalid response.
 */
function undiciCause(err: unknown, errors: typeof Undici.errors): unknown {
  const invalid = err instanceof errors.HTTPParserError || err instanceof errors.HeadersOverflowError;
  if (invalid) return withCode(err as Error, 'HPE_INVALID_CONSTANT');
  if (!(err instanceof errors.UndiciError)) return err;
  if (err.cause instanceof Error && 'code' in err.cause) return err.cause;
  if (err.code === 'UND_ERR_SOCKET') return withCode(err, 'ECONNRESET');
  return err;
}

function withCode(err: Error, code: string): Error {
  return Object.assign(new Error(err.message, { cause: err }), { code });
}
