import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTlsProbe } from '../../lib/check-types/tls/tls-probe.ts';
import { undiciRequest } from '../../lib/egress/undici-client.ts';
import { systemClock } from '../../lib/platform/clock.ts';
import { runHttpProbe } from '../../lib/probes/http-probe.ts';
import type { CheckTlsTrust, HttpProbeDefinition, ProbeDeps } from '../../lib/probes/types.ts';
import { createTlsFixtures, type TlsFixtures } from '../support/tls-fixtures.ts';
import { startHttpsServer, type TestHttpServer } from './support/http-server.ts';

// Per-check TLS trust (`job.tls`): a check's own CA or skip_verify, for that check only.

let fixtures: TlsFixtures;
let selfSigned: TestHttpServer;
let wrongHost: TestHttpServer;
let expired: TestHttpServer;

beforeAll(async () => {
  fixtures = createTlsFixtures();
  selfSigned = await startHttpsServer(fixtures.selfSigned);
  wrongHost = await startHttpsServer(fixtures.wrongHost);
  expired = await startHttpsServer(fixtures.expired10DaysAgo);
});

afterAll(async () => {
  await selfSigned.close();
  await wrongHost.close();
  await expired.close();
});

const resolve = async () => [{ address: '127.0.0.1', family: 4 as const }];
const deps: ProbeDeps = { clock: systemClock, allowPrivate: true, resolve };
const transports = [
  { name: 'http1', deps },
  { name: 'undici', deps: { ...deps, transport: undiciRequest } },
];
const http = (server: TestHttpServer, tls?: CheckTlsTrust): HttpProbeDefinition => ({
  check_type: 'http',
  target_url: `https://localhost:${server.port}/ok`,
  timeout_ms: 2000,
  ...(tls ? { tls } : {}),
});
const warning = 'certificate not verified (skip_verify)';

describe.each(transports)('http probe with per-check TLS trust ($name)', ({ deps }) => {
  it('fails a self-signed target without trust, with the certificate error code', async () => {
    const outcome = await runHttpProbe(http(selfSigned), deps);
    expect(outcome).toMatchObject({ success: false, details: { error_code: 'DEPTH_ZERO_SELF_SIGNED_CERT' } });
    expect(outcome.details?.tls_warning).toBeUndefined();
  });

  it("passes it with the certificate as the check's ca_pem, and only for that check", async () => {
    const trusted = await runHttpProbe(http(selfSigned, { ca_pem: fixtures.selfSigned.cert }), deps);
    expect(trusted).toMatchObject({ success: true, status_code: 200, error_message: '' });
    expect(trusted.details).toBeUndefined();
    // A check without trust, in the same process, right after: still refused (no process-wide effect).
    const other = await runHttpProbe(http(selfSigned), deps);
    expect(other).toMatchObject({ success: false, details: { error_code: 'DEPTH_ZERO_SELF_SIGNED_CERT' } });
  });

  it('trusts the ca_pem on top of the process CAs', async () => {
    const both = { ...deps, tlsCa: [fixtures.caCert] };
    expect(await runHttpProbe(http(selfSigned, { ca_pem: fixtures.selfSigned.cert }), both)).toMatchObject({
      success: true,
    });
    const leaf = { ...http(selfSigned, { ca_pem: fixtures.selfSigned.cert }) };
    expect(
      await runHttpProbe(
        { ...leaf, target_url: leaf.target_url.replace(String(selfSigned.port), String(expired.port)) },
        both,
      ),
    ).toMatchObject({
      success: false,
      details: { error_code: 'CERT_HAS_EXPIRED' },
    });
  });

  it('passes any certificate with skip_verify, and says so in the details', async () => {
    for (const server of [selfSigned, wrongHost, expired]) {
      const outcome = await runHttpProbe(http(server, { skip_verify: true }), deps);
      expect(outcome).toMatchObject({ success: true, status_code: 200, details: { tls_warning: warning } });
    }
    expect(await runHttpProbe(http(wrongHost), deps)).toMatchObject({ success: false });
  });
});

describe('tls probe with per-check TLS trust', () => {
  const tls = (server: TestHttpServer, trust?: CheckTlsTrust) => ({
    check_type: 'tls' as const,
    host: '127.0.0.1',
    port: server.port,
    servername: 'localhost',
    timeout_ms: 2000,
    ...(trust ? { tls: trust } : {}),
  });

  it('fails a self-signed certificate without trust and passes it with ca_pem', async () => {
    expect(await runTlsProbe(tls(selfSigned), deps)).toMatchObject({
      success: false,
      details: { error_code: 'DEPTH_ZERO_SELF_SIGNED_CERT' },
    });
    const trusted = await runTlsProbe(tls(selfSigned, { ca_pem: fixtures.selfSigned.cert }), deps);
    expect(trusted).toMatchObject({ success: true, error_message: '' });
    expect(trusted.details?.days_left).toEqual(expect.any(Number));
    expect(trusted.details?.tls_warning).toBeUndefined();
    expect(await runTlsProbe(tls(selfSigned), deps)).toMatchObject({ success: false });
  });

  it('with skip_verify accepts another name and chain, still reports days left, and warns', async () => {
    const outcome = await runTlsProbe(tls(wrongHost, { skip_verify: true }), deps);
    expect(outcome).toMatchObject({ success: true, details: { days_left: 30, tls_warning: warning } });
    expect(await runTlsProbe(tls(wrongHost), deps)).toMatchObject({ success: false });
  });

  it('with skip_verify still fails an expired certificate: the expiry is what it watches', async () => {
    const outcome = await runTlsProbe(tls(expired, { skip_verify: true }), deps);
    expect(outcome).toMatchObject({
      success: false,
      error_message: 'certificate expired 10 days ago',
      details: { days_left: -11, error_code: 'CERT_HAS_EXPIRED', tls_warning: warning },
    });
  });
});
