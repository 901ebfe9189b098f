import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostnameOf } from '../domain/formats.ts';
import { nodeHeaders } from '../http/policies.ts';
import { errorResponse } from '../http/requests.ts';
import { MAX_ROUTE_BODY_BYTES } from '../http/router.ts';
import type { HttpRequest, HttpResponse } from '../http/types.ts';
import type { HttpLimits } from '../platform/config.ts';
import { PayloadTooLargeError } from '../platform/errors.ts';
import type { Logger } from '../platform/logger.ts';
import { capConnections, serverTimeouts } from './connection-limits.ts';
import { type ConsoleFiles, isApiPath } from './console-files.ts';

/** The client went away before its request body ended: nothing to answer, nothing broken here. */
class ClientAbortError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'ClientAbortError';
  }
}

/**
 * The request body, at most MAX_ROUTE_BODY_BYTES, the largest any route takes (the router holds
 * each route to its own limit); events, not an async iterator: cheaper per request.
 */
function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (error?: unknown) => {
      if (done) return;
      done = true;
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
      if (error !== undefined) {
        req.resume(); // drain and drop the rest, so the answer can still be sent
        reject(error);
      } else resolve(chunks.length === 1 && chunks[0] ? chunks[0] : Buffer.concat(chunks));
    };
    const onData = (chunk: Buffer | string) => {
      const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
      size += buf.length;
      if (size > MAX_ROUTE_BODY_BYTES) finish(new PayloadTooLargeError(MAX_ROUTE_BODY_BYTES));
      else chunks.push(buf);
    };
    const onEnd = () => finish();
    // A request stream errs only when its connection breaks (Node's "aborted", ECONNRESET).
    const onError = (cause: unknown) =>
      finish(new ClientAbortError('the client closed the connection before the body ended', { cause }));
    const onClose = () => {
      if (!req.complete)
        finish(new ClientAbortError('the client closed the connection before the body ended'));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

/**
 * A request target the URL parser would give back unchanged as its path: no query, no `//` start
 * (a scheme-relative URL), only characters it leaves as they are, and no `.` or `..` segment.
 */
const PLAIN_TARGET = /^\/(?!\/)[A-Za-z0-9_~/.-]*$/;
const DOT_SEGMENT = /\/\.\.?(?:\/|$)/;

/** The path and the query (each name's first value) of a request target, as the URL parser reads them. */
export function targetOf(target: string): { path: string; query: Record<string, string> } {
  if (PLAIN_TARGET.test(target) && !DOT_SEGMENT.test(target)) return { path: target, query: {} };
  const url = new URL(target, 'http://localhost');
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) if (!(name in query)) query[name] = value;
  return { path: url.pathname, query };
}

function toHttpRequest(req: IncomingMessage, body: Buffer): HttpRequest {
  const { path, query } = targetOf(req.url ?? '/');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return {
    method: req.method ?? 'GET',
    path,
    query,
    headers,
    body,
    requestId: randomUUID(),
    sourceIp: req.socket.remoteAddress,
  };
}

function send(res: ServerResponse, response: HttpResponse): void {
  // A length instead of chunked framing: the head and the body leave in one write. (A 204 has
  // neither a body nor a Content-Length.)
  const bodyless = response.status === 204 || response.status === 304;
  // A HEAD's answer has no body but GET's Content-Length (the router keeps it); Node sends no body to a HEAD.
  const kept = response.body === '' ? response.headers['content-length'] : undefined;
  const length = kept ?? String(Buffer.byteLength(response.body));
  const headers = nodeHeaders(response.headers);
  res.writeHead(response.status, bodyless ? headers : { ...headers, 'content-length': length });
  res.end(bodyless ? undefined : response.body);
}

/** Resolves when `res` can take more (or is gone, so the writer stops waiting either way). */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const go = () => {
      res.off('drain', go);
      res.off('close', go);
      resolve();
    };
    res.on('drain', go);
    res.on('close', go);
  });
}

/**
 * Writes a streamed body as it comes: the head at once, chunked framing, the client's pace. The
 * stream is cancelled when the client goes away or `open`'s owner ends every open stream.
 */
function sendStream(
  res: ServerResponse,
  response: HttpResponse,
  stream: ReadableStream<Uint8Array>,
  open: Set<() => void>,
  logger: Logger,
): void {
  res.writeHead(response.status, nodeHeaders(response.headers));
  res.flushHeaders();
  const reader = stream.getReader();
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    open.delete(end);
    reader.cancel().catch(() => undefined);
    if (!res.writableEnded) res.end();
  };
  open.add(end);
  res.once('close', end);
  // The client may have left while the route was still opening the stream (a page load cancels
  // the stream request of the page it leaves): 'close' has come and gone, so end it now, or the
  // stream (and the stream slot it holds) would outlive its socket.
  if (res.destroyed) end();
  const pump = async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || ended) return;
      if (!res.write(value)) await drained(res);
    }
  };
  pump().then(end, (err: unknown) => {
    logger.warn('response stream failed', { err });
    ended = true;
    open.delete(end);
    res.destroy();
  });
}

export interface HttpServerOptions {
  /** Aborting it ends every open stream (and any that opens later): a stopping runtime waits for no stream. */
  signal?: AbortSignal;
  /** The web console: GET and HEAD outside the API (/v1, /healthz) are its; every other request is the router's. */
  console?: ConsoleFiles;
  /** Timeouts and the connection cap (VIGIL_HTTP_*); unset: Node's defaults and no cap. */
  limits?: HttpLimits;
  /** Status pages' custom domains (VIGIL_PAGE_DOMAINS): every request under one is the router's, never the console's. */
  pageDomains?: ReadonlySet<string>;
}

/** A node:http server handing every API request to `handle` (the shared router), the rest to the console. */
export function createHttpServer(
  handle: (req: HttpRequest) => Promise<HttpResponse>,
  logger: Logger,
  options: HttpServerOptions = {},
): Server {
  const open = new Set<() => void>();
  options.signal?.addEventListener('abort', () => {
    for (const end of [...open]) end();
  });
  const consoleFiles = options.console;
  const limits = options.limits;
  const onPageDomain = (host: string | undefined) => {
    const name = host === undefined ? undefined : hostnameOf(host);
    return name !== undefined && options.pageDomains?.has(name) === true;
  };
  const server = createServer(limits ? serverTimeouts(limits) : {}, (req, res) => {
    if (
      consoleFiles !== undefined &&
      !isApiPath(req.url ?? '/') &&
      !onPageDomain(req.headers.host) &&
      (req.method === 'GET' || req.method === 'HEAD')
    ) {
      consoleFiles.serve(req, res);
      return;
    }
    readBody(req)
      .then((body) => handle(toHttpRequest(req, body)))
      .then((response) => {
        if (response.stream === undefined) return send(res, response);
        sendStream(res, response, response.stream, open, logger);
        if (options.signal?.aborted) for (const end of [...open]) end();
      })
      .catch((err: unknown) => {
        if (err instanceof ClientAbortError) {
          // Routine on the open internet (a cancelled upload, a dropped link): no answer can reach it.
          logger.debug('client aborted the request', {
            method: req.method,
            path: req.url,
            reason: err.message,
          });
          res.destroy();
          return;
        }
        const response = errorResponse(err, logger);
        response.headers.connection = 'close';
        send(res, response);
      });
  });
  if (limits) capConnections(server, limits.maxConnections, logger);
  return server;
}

/** The port cannot be bound: in use, or below 1024 without the rights. Its message is one line naming PORT. */
export class PortUnavailableError extends Error {
  override name = 'PortUnavailableError';
}

/** What to tell the operator when `port` cannot be bound for `code`; undefined for another failure. */
function portProblem(port: number, code: string | undefined): string | undefined {
  if (code === 'EADDRINUSE')
    return `Port ${port} is in use; set PORT to another port, e.g. PORT=${port === 65535 ? 8081 : port + 1} npm start`;
  if (code === 'EACCES')
    return `Port ${port} needs administrator rights; set PORT to a port above 1023, e.g. PORT=8080 npm start`;
  return undefined;
}

/** Binds `server`; a busy or forbidden port rejects with PortUnavailableError, anything else as it came. */
export async function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      const problem = portProblem(port, err.code);
      reject(problem ? new PortUnavailableError(problem, { cause: err }) : err);
    });
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the HTTP server has no TCP address');
  return address;
}
