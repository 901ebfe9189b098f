import { describe, expect, it } from 'vitest';
import { certificateNames, hostnameMismatchMessage, toEgressError } from '../../lib/egress/egress-errors.ts';

/** An error shaped like the ones Node's TLS socket emits. */
function nodeError(message: string, props: Record<string, unknown>): Error {
  return Object.assign(new Error(message), props);
}

const OPENSSL_TEXT =
  'C056D0A09F7F0000:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:../deps/openssl/openssl/ssl/record/ssl3_record.c:350:';

describe('TLS failures in egress words', () => {
  it('maps an EPROTO write error that carries OpenSSL text to a sentence and its ERR_SSL code', () => {
    const err = toEgressError(nodeError(`write EPROTO ${OPENSSL_TEXT}`, { code: 'EPROTO' }));
    expect(err).toMatchObject({
      name: 'ConnectionError',
      message: 'the server did not answer with TLS',
      code: 'ERR_SSL_WRONG_VERSION_NUMBER',
    });
  });

  it('names an unknown OpenSSL failure by its short reason, never the raw text', () => {
    const err = toEgressError(
      nodeError(OPENSSL_TEXT.replace('wrong version number', 'bad key share'), {
        code: 'ERR_SSL_BAD_KEY_SHARE',
        library: 'SSL routines',
        reason: 'bad key share',
      }),
    );
    expect(err.message).toBe('TLS handshake failed: bad key share');
    expect(err).toMatchObject({ code: 'ERR_SSL_BAD_KEY_SHARE' });
  });

  it('says which names the certificate is for on a hostname mismatch', () => {
    const err = toEgressError(
      nodeError("Hostname/IP does not match certificate's altnames", {
        code: 'ERR_TLS_CERT_ALTNAME_INVALID',
        cert: { subjectaltname: 'DNS:a.example, DNS:b.example, IP Address:10.0.0.1', subject: { CN: 'a' } },
      }),
    );
    expect(err.message).toBe('hostname mismatch: certificate is for a.example, b.example, 10.0.0.1');
  });

  it('bounds the names a hostile certificate lists', () => {
    const names = Array.from({ length: 500 }, (_, i) => `h${i}.example`);
    expect(hostnameMismatchMessage(names)).toBe(
      'hostname mismatch: certificate is for h0.example, h1.example, h2.example and 497 more',
    );
  });

  it('falls back to the common name when there are no SANs', () => {
    expect(certificateNames({ subject: { CN: 'legacy.example' } })).toEqual(['legacy.example']);
    expect(hostnameMismatchMessage([])).toBe('hostname mismatch: certificate names no host');
  });

  it('leaves system errors alone', () => {
    expect(toEgressError(nodeError('connect ECONNREFUSED', { code: 'ECONNREFUSED' })).message).toBe(
      'connection refused',
    );
  });
});
