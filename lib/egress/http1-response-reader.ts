/**
 * The response side of the egress HTTP/1.1 client (lib/egress/http1-client.ts): status line,
 * headers, Content-Length, chunked and read-to-close bodies, with node:http's size caps and errors.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Http1Request, Http1Response } from './http1-message.ts';
import { connectionReset, INVALID_VALUE_CHAR, parseError, TOKEN } from './http1-syntax.ts';

/** Node's default --max-http-header-size, applied here to the raw bytes of a head or trailer section. */
const MAX_HEAD_BYTES = 16 * 1024;
const STATUS_LINE = /^HTTP\/1\.[01] \d{3}(?: |$)/;
const CHUNK_SIZE = /^[0-9A-Fa-f]+(?:;|$)/;
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
export class ResponseReader {
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

  private readonly method: string;
  private readonly maxBodyBytes: Http1Request['maxBodyBytes'];

  constructor(method: string, maxBodyBytes: Http1Request['maxBodyBytes']) {
    this.method = method;
    this.maxBodyBytes = maxBodyBytes;
  }

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

/** Adds one response header by node:http's rules for repeats (the first wins, set-cookie collects, the rest join). */
export function addHeader(headers: IncomingHttpHeaders, name: string, value: string): void {
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
