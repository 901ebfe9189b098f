/**
 * A lean HTTP/1.1 client for egress: one request on a fresh connection, a bounded body prefix.
 *
 * Why not node:http: its client (Agent, ClientRequest, llhttp, IncomingMessage streams) costs
 * about 130 µs of CPU per fresh-connection request, where a socket, one write and this small
 * parser cost about 80 µs, and probes (the hot path) use none of what the rest buys. What callers
 * can observe stays as node:http had it: the same connect options (guarded lookup, SNI, CA), the
 * same request headers, the same headers object, and the same error codes and messages for
 * broken responses (llhttp's "Parse Error: ..." texts, which toEgressError maps).
 */

import { connect as netConnect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { connect as tlsConnect } from 'node:tls';
import { toEgressError } from './egress-errors.ts';
import { bareHost } from './egress-guard.ts';
import type { HopTimings, Http1Request, Http1Response } from './http1-message.ts';
import { encodeRequest } from './http1-request-head.ts';
import { ResponseReader } from './http1-response-reader.ts';

export type { HopTimings, Http1Request, Http1Response } from './http1-message.ts';

/**
 * Sends one request on a fresh connection (`Connection: close` unless the caller set one) and
 * resolves the status, headers and up to `maxBodyBytes` of the body; the socket is destroyed as
 * soon as that is known, so a huge or endless body costs nothing more. Throws (before connecting)
 * node:http's TypeErrors for a method, path or header that could not be sent safely; rejects with
 * egress errors (toEgressError) for the connection and the response, and with the signal's reason
 * on abort.
 */
export async function http1Request(req: Http1Request): Promise<Http1Response> {
  const { url, signal } = req;
  const { bytes, servername } = encodeRequest(req);
  signal?.throwIfAborted();
  const socket = connect(req, servername);
  if (req.timings) markPhases(socket, req.timings);
  const reader = new ResponseReader(req.method, req.maxBodyBytes);
  return new Promise<Http1Response>((resolve, reject) => {
    let settled = false;
    // Every way out destroys the socket and drops the abort listener (the signal outlives this hop).
    const settle = () => {
      if (settled) return false;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      socket.destroy();
      return true;
    };
    const succeed = () => {
      if (settle()) resolve(reader.response());
    };
    const fail = (err: unknown) => {
      if (settle()) reject(err);
    };
    const onAbort = () => fail(signal?.reason);
    // Socket and parse errors get the words a check result shows ("connection refused").
    const onError = (err: unknown) => fail(toEgressError(err, url.hostname));
    socket.on('data', (chunk: Buffer) => {
      try {
        if (reader.push(chunk)) succeed();
      } catch (err) {
        onError(err);
      }
    });
    // 'end' when the server closes; 'close' too, in case the socket went away without an 'end'.
    const onEnd = () => {
      try {
        reader.end();
        succeed();
      } catch (err) {
        onError(err);
      }
    };
    socket.on('end', onEnd);
    socket.on('close', onEnd);
    socket.on('error', onError);
    signal?.addEventListener('abort', onAbort, { once: true });
    socket.write(bytes);
  });
}

/** Records when the socket's phases end (only asked for by the multistep checks). */
function markPhases(socket: Socket, timings: HopTimings): void {
  for (const key of ['lookup', 'connect', 'secure', 'firstByte'] as const) delete timings[key];
  timings.start = performance.now();
  socket.once('lookup', () => {
    timings.lookup = performance.now();
  });
  socket.once('connect', () => {
    timings.connect = performance.now();
  });
  socket.once('secureConnect', () => {
    timings.secure = performance.now();
  });
  socket.once('data', () => {
    timings.firstByte = performance.now();
  });
}

/** Opens the connection; the request written before it is up waits in the socket. */
function connect(req: Http1Request, servername: string | undefined): Socket {
  const host = bareHost(req.url.hostname);
  const { lookup } = req;
  if (req.url.protocol === 'http:') {
    // No Nagle delay, as node:http's agent asks (tls.connect has no such option, nor did https).
    return netConnect({ host, port: Number(req.url.port || 80), lookup, noDelay: true });
  }
  return tlsConnect({
    host,
    port: Number(req.url.port || 443),
    lookup,
    servername,
    ca: req.ca,
    ...(req.rejectUnauthorized === false ? { rejectUnauthorized: false } : {}),
    // Only HTTP/1.1 is spoken here; saying so keeps an h2-preferring server from choosing h2.
    ALPNProtocols: ['http/1.1'],
  });
}
