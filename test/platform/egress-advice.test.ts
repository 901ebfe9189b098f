import { describe, expect, it } from 'vitest';
import { connectionFailureText, egressRefusal } from '../../lib/egress/egress-advice.ts';
import { ConnectionError, EgressDeniedError } from '../../lib/egress/egress-errors.ts';
import { allowedLiteral, checkUrl, resolveAllowed } from '../../lib/egress/egress-guard.ts';

/** The error the guard throws for `host` (a literal, or a name resolving to `address`). */
async function refusal(
  host: string,
  address = host,
  allow: string[] = [],
  url?: string,
): Promise<EgressDeniedError> {
  const resolve = async () => [{ address, family: address.includes(':') ? (6 as const) : (4 as const) }];
  const err = await (url
    ? checkUrl(url, { allowPrivate: false, allow, resolve, httpOnlyToAllowList: true })
    : resolveAllowed(host, { allowPrivate: false, allow, resolve })
  ).catch((e: unknown) => e);
  if (!(err instanceof EgressDeniedError)) throw new Error(`not refused: ${String(err)}`);
  return err;
}

describe('egressRefusal', () => {
  it('names VIGIL_EGRESS_ALLOW with the one-address range of the refused address', async () => {
    expect(egressRefusal(await refusal('127.0.0.1'), 'local')).toBe(
      '127.0.0.1 is a loopback address; Vigil sends to private or loopback addresses only if VIGIL_EGRESS_ALLOW allows them (e.g. VIGIL_EGRESS_ALLOW=127.0.0.1/32)',
    );
    expect(egressRefusal(await refusal('::1'), 'local')).toContain('(e.g. VIGIL_EGRESS_ALLOW=::1/128)');
    expect(egressRefusal(await refusal('router.lan.test', '192.168.0.1'), 'local')).toMatch(
      /^router\.lan\.test resolves to 192\.168\.0\.1, a private address; /,
    );
  });

  it('names the class of other non-public addresses', async () => {
    expect(egressRefusal(await refusal('192.0.2.10'), 'local')).toBe(
      '192.0.2.10 is a reserved address; Vigil sends to reserved addresses only if VIGIL_EGRESS_ALLOW allows them (e.g. VIGIL_EGRESS_ALLOW=192.0.2.10/32)',
    );
    expect(egressRefusal(await refusal('169.254.10.1'), 'local')).toContain(
      'Vigil sends to link-local addresses only if',
    );
  });

  it('names the deployment setting in the cloud', async () => {
    expect(egressRefusal(await refusal('10.0.0.5'), 'cloud')).toBe(
      '10.0.0.5 is a private address; Vigil sends to private or loopback addresses only if VIGIL_EGRESS_ALLOW allows them (deploy with -c vigil:egressAllow=10.0.0.5/32)',
    );
  });

  it('offers no way round a cloud metadata address', () => {
    let err: unknown;
    try {
      allowedLiteral('169.254.169.254', false, ['0.0.0.0/0']);
    } catch (e) {
      err = e;
    }
    if (!(err instanceof EgressDeniedError)) throw new Error('not refused');
    expect(egressRefusal(err, 'cloud')).toBe(
      '169.254.169.254 is a cloud metadata address, which hands out cloud credentials; Vigil never sends to it, whatever VIGIL_EGRESS_ALLOW lists',
    );
  });

  it('says to use https:// when an http:// URL reaches an address outside the allow-list', async () => {
    const err = await refusal(
      'hooks.example.com',
      '93.184.216.34',
      ['127.0.0.0/8'],
      'http://hooks.example.com/x',
    );
    expect(egressRefusal(err, 'local')).toBe(
      'hooks.example.com resolves to 93.184.216.34, a public address; use https://, since http:// goes only to ranges VIGIL_EGRESS_ALLOW allows (your own machine or LAN)',
    );
    // A private address outside the list gets the allow-list advice, which would also let http:// through.
    const lan = await refusal('nas.lan.test', '192.168.1.20', ['127.0.0.0/8'], 'http://nas.lan.test/x');
    expect(egressRefusal(lan, 'local')).toContain('(e.g. VIGIL_EGRESS_ALLOW=192.168.1.20/32)');
    await expect(
      checkUrl('http://nas.lan.test/x', {
        allowPrivate: false,
        allow: ['192.168.1.0/24'],
        resolve: async () => [{ address: '192.168.1.20', family: 4 }],
        httpOnlyToAllowList: true,
      }),
    ).resolves.toBeInstanceOf(URL);
  });
});

describe('connectionFailureText', () => {
  it('names NODE_EXTRA_CA_CERTS for a certificate of an unknown CA or a self-signed one, and nothing else', () => {
    for (const code of [
      'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
      'DEPTH_ZERO_SELF_SIGNED_CERT',
      'SELF_SIGNED_CERT_IN_CHAIN',
    ]) {
      expect(connectionFailureText(new ConnectionError('certificate problem', code))).toContain(
        'start Vigil with NODE_EXTRA_CA_CERTS',
      );
    }
    expect(connectionFailureText(new ConnectionError('certificate has expired', 'CERT_HAS_EXPIRED'))).toBe(
      'certificate has expired',
    );
    expect(connectionFailureText(new ConnectionError('connection refused', 'ECONNREFUSED'))).toBe(
      'connection refused',
    );
  });
});
