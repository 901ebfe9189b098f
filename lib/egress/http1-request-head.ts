/**
 * The request side of the egress HTTP/1.1 client (lib/egress/http1-client.ts): the head and body
 * as node:http would write them, and the TLS server name.
 */
import { isIP } from 'node:net';
import type { Http1Request } from './http1-message.ts';
import { INVALID_VALUE_CHAR, invalidRequest, TOKEN } from './http1-syntax.ts';

/** node:http's check on the request target; a URL's path and query are already percent-encoded. */
const INVALID_PATH_CHAR = /[^\u0021-\u00ff]/;
/** Methods node:http sends no `Content-Length: 0` for when there is no body (others get one, or a 411). */
const NO_LENGTH_WITHOUT_BODY = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT']);

/**
 * The request head and body as one buffer (one write), and the TLS server name. Refuses what
 * node:http refuses, so nothing a caller passes can end a header line or the head early: that
 * is what would let a header value smuggle a second request.
 */
export function encodeRequest(req: Http1Request): { bytes: Buffer; servername: string | undefined } {
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
