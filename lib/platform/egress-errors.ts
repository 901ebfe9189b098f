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
  constructor(
    message: string,
    readonly host: string,
    readonly address: string | undefined,
    options: { cause?: unknown } = {},
  ) {
    super(message, options);
  }
}

/** The URL is not one egress will call (bad syntax, scheme other than http/https). */
export class InvalidUrlError extends EgressError {
  override name = 'InvalidUrlError';
}

/** The whole operation (resolution, connect, redirects, body) ran past its budget. */
export class TimeoutError extends EgressError {
  override name = 'TimeoutError';
  constructor(
    readonly timeoutMs: number,
    options: { cause?: unknown } = {},
  ) {
    super(`timed out after ${timeoutMs} ms`, options);
  }
}

/** A network-level failure; `code` is the system code such as ECONNREFUSED or ENOTFOUND. */
export class ConnectionError extends EgressError {
  override name = 'ConnectionError';
  constructor(
    message: string,
    readonly code: string,
    options: { cause?: unknown } = {},
  ) {
    super(message, options);
  }
}

/** A redirect chain longer than the caller allows. */
export class TooManyRedirectsError extends EgressError {
  override name = 'TooManyRedirectsError';
  constructor(readonly maxRedirects: number) {
    super(`more than ${maxRedirects} redirects`);
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

/** OpenSSL verify codes (as Node reports them) for an untrusted chain, with OpenSSL's descriptions. */
const TLS_CHAIN_REASONS: Readonly<Record<string, string>> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed certificate',
  SELF_SIGNED_CERT_IN_CHAIN: 'self-signed certificate in certificate chain',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'unable to verify the first certificate',
  UNABLE_TO_GET_ISSUER_CERT: 'unable to get issuer certificate',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'unable to get local issuer certificate',
  CERT_NOT_YET_VALID: 'certificate is not yet valid',
  CERT_REVOKED: 'certificate revoked',
  CERT_SIGNATURE_FAILURE: 'certificate signature failure',
  CERT_UNTRUSTED: 'certificate not trusted',
  INVALID_CA: 'invalid CA certificate',
  CERT_CHAIN_TOO_LONG: 'certificate chain too long',
};

/** The words for a TLS verification failure, shared by the tls probe and https requests. */
export function tlsFailureMessage(code: string): string | undefined {
  if (code === 'CERT_HAS_EXPIRED') return 'certificate expired';
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return 'hostname mismatch';
  const reason = TLS_CHAIN_REASONS[code];
  return reason === undefined ? undefined : `certificate chain is not trusted: ${reason}`;
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
  const tls = tlsFailureMessage(code);
  if (tls) return new ConnectionError(tls, code, { cause: err });
  const detail = err instanceof Error ? err.message : String(err);
  if (code.startsWith('ERR_TLS') || code.includes('CERT') || /certificate|SSL|TLS/i.test(detail)) {
    return new ConnectionError(`TLS error: ${detail}`, code, { cause: err });
  }
  return new ConnectionError(detail || 'connection failed', code, { cause: err });
}
