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
import type { IncomingHttpHeaders } from 'node:http';
import { isIP, type LookupFunction, connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { CancelSignal } from './egress-deadline.ts';
import { toEgressError } from './egress-errors.ts';
import { bareHost } from './egress-guard.ts';

/** One request. */
export interface Http1Request {
  /** http: or https:; userinfo becomes basic auth unless `headers` has an Authorization. */
  url: URL;
  /** Sent as given (callers upper-case it). */
  method: string;
  /** Sent as given, except Content-Length and Transfer-Encoding: the framing is the client's. */
  headers: Record<string, string>;
  body?: string | Buffer;
  /** Resolves host names on connect (the SSRF guard's lookup); IP literals never reach it. */
  lookup?: LookupFunction;
  /** Trusted CA certificates for https; Node's bundled ones when undefined. */
  ca?: string[];
  /** Aborting destroys the connection and rejects with the signal's reason. */
  signal?: CancelSignal;
  /** Body bytes kept (reading stops there), or a choice per status; 0 stops right after the head. */
  maxBodyBytes: number | ((status: number) => number);
}

/** The final response (interim 1xx responses are skipped). */
export interface Http1Response {
  status: number;
  /** Lower-case names, duplicates combined as node:http combines them. */
  headers: IncomingHttpHeaders;
  /** At most `maxBodyBytes` of the decoded body. */
  bodyPrefix: Buffer;
}

/** Node's default --max-http-header-size, applied here to the raw bytes of a head or trailer section. */
const MAX_HEAD_BYTES = 16 * 1024;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** What node:http refuses in a header value, sent or received (CTLs other than HTAB, DEL, >0xFF). */
const INVALID_VALUE_CHAR = /[^\t\x20-\x7e\x80-\xff]/;
/** node:http's check on the request target; a URL's path and query are already percent-encoded. */
const INVALID_PATH_CHAR = /[^\u0021-\u00ff]/;
const STATUS_LINE = /^HTTP\/1\.[01] \d{3}(?: |$)/;
const CHUNK_SIZE = /^[0-9A-Fa-f]+(?:;|$)/;
/** Methods node:http sends no `Content-Length: 0` for when there is no body (others get one, or a 411). */
const NO_LENGTH_WITHOUT_BODY = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT']);
/** Response headers whose duplicates node:http drops (the first wins); set-cookie is an array, the rest join. */
const FIRST_WINS = new Set([
  'age',
  'authorization',
  'content-length',
  'content-type',
  'etag',
  'expires',
  'from',
  'host',
  'if-modified-since',
  'if-unmodified-since',
  'last-modified',
  'location',
  'max-forwards',
  'proxy-authorization',
  'referer',
  'retry-after',
  'server',
  'user-agent',
]);

/** llhttp's codes and reasons, so a broken response fails as it did with node:http. */
const PARSE_ERRORS = {
  HPE_INVALID_CONSTANT: 'Expected HTTP/',
  HPE_INVALID_STATUS: 'Invalid status code',
  HPE_INVALID_HEADER_TOKEN: 'Invalid header token',
  HPE_HEADER_OVERFLOW: 'Header overflow',
  HPE_INVALID_CONTENT_LENGTH: 'Invalid character in Content-Length',
  HPE_UNEXPECTED_CONTENT_LENGTH: 'Duplicate Content-Length',
  HPE_INVALID_TRANSFER_ENCODING: "Transfer-Encoding can't be present with Content-Length",
  HPE_INVALID_CHUNK_SIZE: 'Invalid character in chunk size',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 'Chunk extensions overflow',
  HPE_STRICT: 'Expected LF after chunk data',
} as const;

function parseError(code: keyof typeof PARSE_ERRORS): Error {
  return Object.assign(new Error(`Parse Error: ${PARSE_ERRORS[code]}`), { code });
}

/** node:http's "socket hang up" (no response) and "aborted" (body cut short), both ECONNRESET. */
function connectionReset(message: string): Error {
  return Object.assign(new Error(message), { code: 'ECONNRESET' });
}

/** node:http's errors for a request it refuses to send. */
function invalidRequest(code: string, message: string): TypeError {
  return Object.assign(new TypeError(message), { code });
}

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
    // Only HTTP/1.1 is spoken here; saying so keeps an h2-preferring server from choosing h2.
    ALPNProtocols: ['http/1.1'],
  });
}

/**
 * The request head and body as one buffer (one write), and the TLS server name. Refuses what
 * node:http refuses, so nothing a caller passes can end a header line or the head early: that
 * is what would let a header value smuggle a second request.
 */
function encodeRequest(req: Http1Request): { bytes: Buffer; servername: string | undefined } {
  const { url, method, body } = req;
  if (!TOKEN.test(method)) {
    throw invalidRequest('ERR_INVALID_HTTP_TOKEN', `Method must be a valid HTTP token ["${method}"]`);
  }
  const path = `${url.pathname}${url.search}`;
  if (INVALID_PATH_CHAR.test(path)) {
    throw invalidRequest('ERR_UNESCAPED_CHARACTERS', 'Request path contains unescaped characters');
  }
  // Keyed by lower-case name so a later spelling replaces an earlier one in place, as node:http does.
  const fields = new Map<string, string>();
  let host = url.host;
  for (const [name, value] of Object.entries(req.headers)) {
    if (!TOKEN.test(name)) {
      throw invalidRequest('ERR_INVALID_HTTP_TOKEN', `Header name must be a valid HTTP token ["${name}"]`);
    }
    if (INVALID_VALUE_CHAR.test(value)) {
      throw invalidRequest('ERR_INVALID_CHAR', `Invalid character in header content ["${name}"]`);
    }
    const lower = name.toLowerCase();
    // The body's length is ours alone: a caller's could make the server read part of the body as
    // a second request.
    if (lower === 'content-length' || lower === 'transfer-encoding') continue;
    if (lower === 'host') host = value;
    fields.set(lower, `${name}: ${value}\r\n`);
  }
  let head = `${method} ${path} HTTP/1.1\r\n`;
  for (const line of fields.values()) head += line;
  if (!fields.has('host')) head += `Host: ${host}\r\n`;
  if (url.username && !fields.has('authorization')) {
    const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
    head += `Authorization: Basic ${Buffer.from(credentials).toString('base64')}\r\n`;
  }
  if (!fields.has('connection')) head += 'Connection: close\r\n';
  const bodyBytes = typeof body === 'string' ? Buffer.byteLength(body) : (body?.length ?? 0);
  if (body !== undefined || !NO_LENGTH_WITHOUT_BODY.has(method)) head += `Content-Length: ${bodyBytes}\r\n`;
  head += '\r\n';
  // Header text is latin1 on the wire, as node:http writes it; a string body is UTF-8.
  const headBytes = Buffer.byteLength(head, 'latin1');
  const bytes = Buffer.allocUnsafe(headBytes + bodyBytes);
  bytes.write(head, 0, 'latin1');
  if (typeof body === 'string') bytes.write(body, headBytes, 'utf8');
  else body?.copy(bytes, headBytes);
  // Only https needs the server name (SNI and the certificate's name).
  return { bytes, servername: url.protocol === 'https:' ? serverName(host) : undefined };
}

/** SNI and the name the certificate must match: the Host header's host, none for an IP (node:https's rule). */
function serverName(hostHeader: string): string | undefined {
  let name = hostHeader.split(':', 1)[0] ?? '';
  if (hostHeader.startsWith('[')) {
    const end = hostHeader.indexOf(']');
    name = end === -1 ? hostHeader : hostHeader.slice(1, end);
  }
  return name === '' || isIP(name) ? undefined : name;
}

type Mode =
  | 'head' // status line and header lines
  | 'length' // Content-Length body
  | 'close' // body until the server closes
  | 'chunk-size' // chunked body: size line
  | 'chunk-data'
  | 'chunk-end' // the CRLF after a chunk's data
  | 'trailers' // after the last chunk, up to an empty line (ignored)
  | 'done';

/** Parses one response from the bytes as they arrive, keeping a body prefix. */
class ResponseReader {
  private status = 0;
  // No prototype: a header named like an Object.prototype member (`__proto__`) stays a plain field.
  private headers: IncomingHttpHeaders = Object.create(null);
  private mode: Mode = 'head';
  private sawStatusLine = false;
  /** A line-mode line received in part (latin1: one char per byte). */
  private partial = '';
  /** Bytes of the current head, trailer section or chunk-size line, against the caps. */
  private sectionBytes = 0;
  /** Bytes left in a Content-Length body or in the current chunk. */
  private remaining = 0;
  private limit = 0;
  private kept = 0;
  private readonly chunks: Buffer[] = [];

  constructor(
    private readonly method: string,
    private readonly maxBodyBytes: Http1Request['maxBodyBytes'],
  ) {}

  response(): Http1Response {
    return { status: this.status, headers: this.headers, bodyPrefix: Buffer.concat(this.chunks, this.kept) };
  }

  /** Consumes bytes from the socket; true once the response is complete or enough body is kept. */
  push(data: Buffer): boolean {
    let at = 0;
    while (at < data.length && this.mode !== 'done') {
      if (this.mode === 'length' || this.mode === 'chunk-data') {
        const take = Math.min(this.remaining, data.length - at);
        this.keep(data.subarray(at, at + take));
        at += take;
        this.remaining -= take;
        if (this.remaining === 0 && this.mode === 'length') this.mode = 'done';
        if (this.remaining === 0 && this.mode === 'chunk-data') this.mode = 'chunk-end';
      } else if (this.mode === 'close') {
        this.keep(data.subarray(at));
        at = data.length;
      } else {
        at = this.readLine(data, at);
      }
    }
    return this.mode === 'done';
  }

  /** The server closed the connection: fine only where that ends the response. */
  end(): void {
    if (this.mode === 'close') this.mode = 'done';
    else if (this.mode === 'head') throw connectionReset('socket hang up');
    else if (this.mode !== 'done') throw connectionReset('aborted');
  }

  /** Takes one CRLF-terminated line starting at `at` (or keeps the part received); returns the next offset. */
  private readLine(data: Buffer, at: number): number {
    const lf = data.indexOf(10, at);
    const end = lf === -1 ? data.length : lf + 1;
    this.sectionBytes += end - at;
    if (this.sectionBytes > MAX_HEAD_BYTES) {
      throw parseError(
        this.mode === 'chunk-size' || this.mode === 'chunk-end'
          ? 'HPE_CHUNK_EXTENSIONS_OVERFLOW'
          : 'HPE_HEADER_OVERFLOW',
      );
    }
    if (lf === -1) {
      this.partial += data.toString('latin1', at);
      // Fail at once on a server that speaks something else, rather than wait for a line end.
      if (this.mode === 'head' && !this.sawStatusLine && !'HTTP/1.'.startsWith(this.partial.slice(0, 7))) {
        throw parseError('HPE_INVALID_CONSTANT');
      }
      return end;
    }
    const line = this.partial + data.toString('latin1', at, lf);
    this.partial = '';
    // The only CR must be the one ending the line: a bare LF or CR elsewhere is malformed.
    const cr = line.indexOf('\r');
    if (cr === -1 || cr !== line.length - 1) throw this.malformed(line);
    this.onLine(line.slice(0, -1));
    return end;
  }

  private onLine(line: string): void {
    switch (this.mode) {
      case 'head':
        if (!this.sawStatusLine) this.onStatusLine(line);
        else if (line === '') this.onEndOfHead();
        else this.onHeaderLine(line);
        return;
      case 'chunk-size': {
        const size = CHUNK_SIZE.test(line) ? Number.parseInt(line, 16) : Number.NaN;
        if (!Number.isSafeInteger(size)) throw this.malformed(line);
        this.remaining = size;
        this.mode = size === 0 ? 'trailers' : 'chunk-data';
        if (size === 0) this.sectionBytes = 0;
        return;
      }
      case 'chunk-end':
        if (line !== '') throw this.malformed(line);
        this.mode = 'chunk-size';
        this.sectionBytes = 0;
        return;
      case 'trailers':
        if (line === '') this.mode = 'done';
        return;
      default:
        return;
    }
  }

  private onStatusLine(line: string): void {
    if (!STATUS_LINE.test(line)) throw this.malformed(line);
    this.sawStatusLine = true;
    this.status = Number(line.slice(9, 12));
  }

  private onHeaderLine(line: string): void {
    const colon = line.indexOf(':');
    const name = line.slice(0, Math.max(colon, 0)).toLowerCase();
    const value = trimSpaces(line.slice(colon + 1));
    // An empty or non-token name also refuses obs-fold continuation lines, as llhttp does.
    if (!TOKEN.test(name) || INVALID_VALUE_CHAR.test(value)) throw this.malformed(line);
    if (name === 'content-length' && this.headers['content-length'] !== undefined) {
      throw parseError('HPE_UNEXPECTED_CONTENT_LENGTH');
    }
    addHeader(this.headers, name, value);
  }

  private onEndOfHead(): void {
    // Interim responses (100 Continue, 102, 103 Early Hints, ...) are skipped; 101 is final.
    if (this.status >= 100 && this.status < 200 && this.status !== 101) {
      this.sawStatusLine = false;
      this.headers = Object.create(null);
      this.sectionBytes = 0;
      return;
    }
    const length = bodyLength(this.headers);
    const hasBody =
      this.method !== 'HEAD' && this.status !== 204 && this.status !== 304 && this.status !== 101;
    const limit = typeof this.maxBodyBytes === 'number' ? this.maxBodyBytes : this.maxBodyBytes(this.status);
    this.limit = hasBody ? Math.max(0, limit) : 0;
    if (this.limit === 0 || length === 0) this.mode = 'done';
    else if (length === 'chunked') {
      this.mode = 'chunk-size';
      this.sectionBytes = 0;
    } else if (length === 'close') this.mode = 'close';
    else {
      this.mode = 'length';
      this.remaining = length;
    }
  }

  private keep(bytes: Buffer): void {
    const room = this.limit - this.kept;
    const part = bytes.length > room ? bytes.subarray(0, room) : bytes;
    this.chunks.push(part);
    this.kept += part.length;
    if (this.kept >= this.limit) this.mode = 'done';
  }

  /** The error for a line that breaks the syntax of the current part. */
  private malformed(line: string): Error {
    if (this.mode === 'chunk-size') return parseError('HPE_INVALID_CHUNK_SIZE');
    if (this.mode === 'chunk-end') return parseError('HPE_STRICT');
    if (this.mode === 'head' && !this.sawStatusLine) {
      return parseError(/^HTTP\/1\.[01] /.test(line) ? 'HPE_INVALID_STATUS' : 'HPE_INVALID_CONSTANT');
    }
    return parseError('HPE_INVALID_HEADER_TOKEN');
  }
}

/** How the body is delimited: a byte count, chunked, or the end of the connection. */
function bodyLength(headers: IncomingHttpHeaders): number | 'chunked' | 'close' {
  const encoding = headers['transfer-encoding'];
  const length = headers['content-length'];
  if (encoding !== undefined) {
    // Both at once is how responses get desynchronised; llhttp refuses it too.
    if (length !== undefined) throw parseError('HPE_INVALID_TRANSFER_ENCODING');
    // Chunked only if it is the last coding applied; otherwise the body runs to the close.
    return /(?:^|,)[ \t]*chunked[ \t]*$/i.test(encoding) ? 'chunked' : 'close';
  }
  if (length === undefined) return 'close';
  const bytes = /^\d+$/.test(length) ? Number(length) : Number.NaN;
  if (!Number.isSafeInteger(bytes)) throw parseError('HPE_INVALID_CONTENT_LENGTH');
  return bytes;
}

/** node:http's rules for repeated response headers. */
function addHeader(headers: IncomingHttpHeaders, name: string, value: string): void {
  const current = headers[name];
  if (name === 'set-cookie') {
    if (Array.isArray(current)) current.push(value);
    else headers[name] = [value];
  } else if (FIRST_WINS.has(name)) {
    if (current === undefined) headers[name] = value;
  } else if (typeof current === 'string') {
    headers[name] = `${current}${name === 'cookie' ? '; ' : ', '}${value}`;
  } else {
    headers[name] = value;
  }
}

/** Strips the optional whitespace (SP, HTAB only) around a header value. */
function trimSpaces(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && (value[start] === ' ' || value[start] === '\t')) start++;
  while (end > start && (value[end - 1] === ' ' || value[end - 1] === '\t')) end--;
  return value.slice(start, end);
}
