import type { AddressClass } from './ip-rules.ts';

/**
 * Errors of the egress module. They describe why an outbound call failed, in words a check
 * result or an execution record can show; services map them to API errors where needed
 * (e.g. EgressDeniedError at create time becomes a VALIDATION_ERROR).
 */

/** Base of every egress failure. */
export class EgressError extends Error {
  override name = 'EgressError';
}

/** The destination resolved to an address the SSRF guard does not allow. */
export class EgressDeniedError extends EgressError {
  override name = 'EgressDeniedError';
  /** What kind of address was refused ('public' for a clear-text URL outside the allow-list). */
  readonly addressClass: AddressClass | undefined;
  readonly host: string;
  readonly address: string | undefined;
  constructor(
    message: string,
    host: string,
    address: string | undefined,
    options: { cause?: unknown; addressClass?: AddressClass } = {},
  ) {
    super(message, options);
    this.host = host;
    this.address = address;
    this.addressClass = options.addressClass;
  }
}

/**
 * An http:// URL whose host reaches an address outside the allow-list: clear text goes only to
 * the operator's own ranges (VIGIL_EGRESS_ALLOW), never across the internet.
 */
export class CleartextDeniedError extends EgressDeniedError {
  override name = 'CleartextDeniedError';
}

/** The URL is not one egress will call (bad syntax, scheme other than http/https). */
export class InvalidUrlError extends EgressError {
  override name = 'InvalidUrlError';
}

/** The whole operation (resolution, connect, redirects, body) ran past its budget. */
export class TimeoutError extends EgressError {
  override name = 'TimeoutError';
  readonly timeoutMs: number;
  constructor(timeoutMs: number, options: { cause?: unknown } = {}) {
    super(`timed out after ${timeoutMs} ms`, options);
    this.timeoutMs = timeoutMs;
  }
}

/** A network-level failure; `code` is the system code such as ECONNREFUSED or ENOTFOUND. */
export class ConnectionError extends EgressError {
  override name = 'ConnectionError';
  readonly code: string;
  constructor(message: string, code: string, options: { cause?: unknown } = {}) {
    super(message, options);
    this.code = code;
  }
}

/** A redirect chain longer than the caller allows. */
export class TooManyRedirectsError extends EgressError {
  override name = 'TooManyRedirectsError';
  readonly maxRedirects: number;
  constructor(maxRedirects: number) {
    super(`more than ${maxRedirects} redirects`);
    this.maxRedirects = maxRedirects;
  }
}

const messages: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ENOTFOUND: 'could not resolve host',
  EAI_AGAIN: 'could not resolve host',
  EADDRNOTAVAIL: 'address not available',
  HPE_INVALID_CONSTANT: 'invalid HTTP response',
  HPE_INVALID_STATUS: 'invalid HTTP response',
  HPE_INVALID_HEADER_TOKEN: 'invalid HTTP response',
};

/**
 * Sentences for TLS failures, keyed by the code Node reports: OpenSSL verify codes for a chain
 * that did not verify, and Node's ERR_SSL_* codes for a handshake that failed. The raw OpenSSL
 * text ("...:error:0A00010B:SSL routines:...") means nothing to a user, so it is never shown.
 */
const TLS_FAILURES: Readonly<Record<string, string>> = {
  CERT_HAS_EXPIRED: 'certificate has expired',
  CERT_NOT_YET_VALID: 'certificate is not yet valid',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed certificate',
  SELF_SIGNED_CERT_IN_CHAIN: 'self-signed certificate in chain',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'certificate issued by an unknown CA',
  UNABLE_TO_GET_ISSUER_CERT: 'certificate issued by an unknown CA',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'certificate issued by an unknown CA',
  CERT_UNTRUSTED: 'certificate is not trusted',
  CERT_REVOKED: 'certificate has been revoked',
  CERT_SIGNATURE_FAILURE: 'certificate signature does not verify',
  INVALID_CA: 'certificate chain contains an invalid CA certificate',
  CERT_CHAIN_TOO_LONG: 'certificate chain is too long',
  ERR_TLS_CERT_ALTNAME_INVALID: 'hostname mismatch',
  ERR_SSL_WRONG_VERSION_NUMBER: 'the server did not answer with TLS',
  ERR_SSL_PACKET_LENGTH_TOO_LONG: 'the server did not answer with TLS',
  ERR_SSL_HTTP_REQUEST: 'the server did not answer with TLS',
  ERR_SSL_UNEXPECTED_EOF_WHILE_READING: 'the server closed the connection during the TLS handshake',
  ERR_SSL_UNSUPPORTED_PROTOCOL: 'the server offers no TLS version in common (TLS 1.2 or later)',
  ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION: 'the server offers no TLS version in common (TLS 1.2 or later)',
  ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE: 'the server refused the TLS handshake (no cipher in common)',
  ERR_SSL_NO_SHARED_CIPHER: 'the server refused the TLS handshake (no cipher in common)',
  ERR_SSL_TLSV1_UNRECOGNIZED_NAME: 'the server does not know the requested server name',
  ERR_SSL_TLSV1_ALERT_INTERNAL_ERROR: 'the server aborted the TLS handshake',
  ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED: 'the server requires a client certificate',
  ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE: 'the server requires a client certificate',
};

const MAX_NAMES_SHOWN = 3;

/** The names a certificate is for (DNS and IP SANs, else its CN), for "hostname mismatch: certificate is for X". */
export function certificateNames(cert: {
  subjectaltname?: string | undefined;
  subject?: { CN?: string | string[] } | undefined;
}): string[] {
  const sans = (cert.subjectaltname ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .flatMap((entry) => {
      const match = /^(?:DNS|IP Address):(.+)$/.exec(entry);
      return match?.[1] ? [match[1]] : [];
    });
  if (sans.length > 0) return sans;
  const cn = cert.subject?.CN;
  return (Array.isArray(cn) ? cn : cn ? [cn] : []).filter((name) => name !== '');
}

/** "hostname mismatch: certificate is for a.example, b.example and 4 more" (server-chosen names, bounded). */
export function hostnameMismatchMessage(names: string[]): string {
  if (names.length === 0) return 'hostname mismatch: certificate names no host';
  const shown = names.slice(0, MAX_NAMES_SHOWN).map((name) => name.slice(0, 253));
  const rest = names.length - shown.length;
  return `hostname mismatch: certificate is for ${shown.join(', ')}${rest > 0 ? ` and ${rest} more` : ''}`;
}

/** The sentence for a TLS failure code (OpenSSL verify code or Node ERR_SSL_* code); undefined if not TLS. */
export function tlsFailureMessage(code: string): string | undefined {
  return TLS_FAILURES[code];
}

/** Whether a ConnectionError's code is a TLS failure (probes record the code in result details). */
export function isTlsFailureCode(code: string): boolean {
  return code in TLS_FAILURES || code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_');
}

/** OpenSSL's short reason ("wrong version number"), never its full error string with file paths. */
function opensslReason(err: object): string | undefined {
  return 'reason' in err && typeof err.reason === 'string' && err.reason !== ''
    ? err.reason.slice(0, 200)
    : undefined;
}

/** The peer certificate Node attaches to ERR_TLS_CERT_ALTNAME_INVALID. */
function certOf(err: object): Parameters<typeof certificateNames>[0] {
  if (!('cert' in err) || typeof err.cert !== 'object' || err.cert === null) return {};
  const cert: { subjectaltname?: unknown; subject?: unknown } = err.cert;
  const subject = typeof cert.subject === 'object' && cert.subject !== null ? cert.subject : {};
  const cn =
    'CN' in subject && (typeof subject.CN === 'string' || Array.isArray(subject.CN)) ? subject.CN : undefined;
  return {
    subjectaltname: typeof cert.subjectaltname === 'string' ? cert.subjectaltname : undefined,
    subject: { CN: Array.isArray(cn) ? cn.filter((n): n is string => typeof n === 'string') : cn },
  };
}

/**
 * Node's code for an OpenSSL error it reported only in the message (a write during the handshake
 * fails with EPROTO and "...:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:...").
 */
function codeFromOpenSslText(message: string): string | undefined {
  const reason = /:error:[0-9A-F]+:SSL routines:[^:]*:([^:]+):/.exec(message)?.[1];
  return reason ? `ERR_SSL_${reason.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}` : undefined;
}

function tlsError(reported: string, err: unknown): ConnectionError | undefined {
  const source = typeof err === 'object' && err !== null ? err : {};
  const code = (err instanceof Error && codeFromOpenSslText(err.message)) || reported;
  const fromOpenSsl = 'library' in source && typeof source.library === 'string';
  if (!isTlsFailureCode(code) && !fromOpenSsl) return undefined;
  const reason = opensslReason(source) ?? /^ERR_SSL_(.+)$/.exec(code)?.[1]?.toLowerCase().replace(/_/g, ' ');
  const message =
    code === 'ERR_TLS_CERT_ALTNAME_INVALID'
      ? hostnameMismatchMessage(certificateNames(certOf(source)))
      : (tlsFailureMessage(code) ?? `TLS handshake failed${reason ? `: ${reason}` : ''}`);
  return new ConnectionError(message, code, { cause: err });
}

function errorCode(err: unknown): string {
  if (typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string')
    return err.code;
  return 'UNKNOWN';
}

/**
 * Turns whatever a socket emitted into an egress error: egress errors pass through, system and
 * TLS errors become a ConnectionError with a short message ("connection refused").
 */
export function toEgressError(err: unknown, host?: string): EgressError {
  if (err instanceof EgressError) return err;
  const code = errorCode(err);
  const known = messages[code];
  if (known) {
    const text = code === 'ENOTFOUND' || code === 'EAI_AGAIN' ? `${known} ${host ?? ''}`.trim() : known;
    return new ConnectionError(text, code, { cause: err });
  }
  const tls = tlsError(code, err);
  if (tls) return tls;
  const detail = err instanceof Error ? err.message : String(err);
  return new ConnectionError(detail || 'connection failed', code, { cause: err });
}
