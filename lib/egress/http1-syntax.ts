/**
 * The HTTP/1.1 field syntax both directions of the egress client check (lib/egress/http1-client.ts),
 * and the errors node:http fails with when it is broken, so callers see the same codes and texts.
 */

/** A method or header name. */
export const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** What node:http refuses in a header value, sent or received (CTLs other than HTAB, DEL, >0xFF). */
export const INVALID_VALUE_CHAR = /[^\t\x20-\x7e\x80-\xff]/;

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

/** llhttp's error for a response that breaks the syntax ("Parse Error: ..."), which toEgressError maps. */
export function parseError(code: keyof typeof PARSE_ERRORS): Error {
  return Object.assign(new Error(`Parse Error: ${PARSE_ERRORS[code]}`), { code });
}

/** node:http's "socket hang up" (no response) and "aborted" (body cut short), both ECONNRESET. */
export function connectionReset(message: string): Error {
  return Object.assign(new Error(message), { code: 'ECONNRESET' });
}

/** node:http's errors for a request it refuses to send. */
export function invalidRequest(code: string, message: string): TypeError {
  return Object.assign(new TypeError(message), { code });
}
