import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../lib/platform/clock.ts';
import { runHttpProbe } from '../../lib/probes/http-probe.ts';
import type { HttpProbeDefinition, ProbeDeps } from '../../lib/probes/types.ts';
import { createTlsFixtures } from '../support/tls-fixtures.ts';
import { closedPort, startHttpServer, startHttpsServer, type TestHttpServer } from './support/http-server.ts';
import { NOT_TLS } from './support/outcomes.ts';

let server: TestHttpServer;
let https: TestHttpServer;
let wrongHost: TestHttpServer;
let expired: TestHttpServer;
let selfSigned: TestHttpServer;
let caCert: string;

beforeAll(async () => {
  const fixtures = createTlsFixtures();
  caCert = fixtures.caCert;
  server = await startHttpServer();
  https = await startHttpsServer(fixtures.valid);
  wrongHost = await startHttpsServer(fixtures.wrongHost);
  expired = await startHttpsServer(fixtures.expired10DaysAgo);
  selfSigned = await startHttpsServer(fixtures.selfSigned);
});

afterAll(async () => {
  await server.close();
  await https.close();
  await wrongHost.close();
  await expired.close();
  await selfSigned.close();
});

const deps: ProbeDeps = { clock: systemClock, allowPrivate: true };
const check = (path: string, extra: Partial<HttpProbeDefinition> = {}): HttpProbeDefinition => ({
  check_type: 'http',
  target_url: `${server.origin}${path}`,
  timeout_ms: 2000,
  ...extra,
});

describe('http probe', () => {
  it('passes on the expected status', async () => {
    const outcome = await runHttpProbe(check('/ok'), deps);
    expect(outcome).toMatchObject({ success: true, status_code: 200, error_message: '' });
    expect(Number.isInteger(outcome.latency_ms)).toBe(true);
  });

  it('fails on another status and records it', async () => {
    const outcome = await runHttpProbe(check('/status/503'), deps);
    expect(outcome).toMatchObject({
      success: false,
      status_code: 503,
      error_message: 'expected status 200, got 503',
    });
  });

  it('passes when the expected status is not 200', async () => {
    const outcome = await runHttpProbe(check('/status/503', { expected_status: 503 }), deps);
    expect(outcome).toMatchObject({ success: true, status_code: 503 });
  });

  it.each([
    [204, true],
    [302, true],
    [500, false],
  ])('judges %i against expected_statuses [204, "300-399"]', async (status, success) => {
    // /status/302 answers without a location: the 302 is the final answer.
    const outcome = await runHttpProbe(
      check(`/status/${status}`, { expected_status: 204, expected_statuses: [204, '300-399'] }),
      deps,
    );
    expect(outcome).toMatchObject({
      success,
      status_code: status,
      error_message: success ? '' : 'expected status 204, 300-399, got 500',
    });
  });

  it('passes when the body contains the text', async () => {
    const outcome = await runHttpProbe(check('/ok', { body_contains: 'ok' }), deps);
    expect(outcome.success).toBe(true);
  });

  it('fails when the body does not contain the text', async () => {
    const outcome = await runHttpProbe(check('/status/200', { body_contains: 'ok' }), deps);
    expect(outcome).toMatchObject({
      success: false,
      status_code: 200,
      error_message: 'body does not contain "ok"',
    });
  });

  it('searches only the first 64 KiB of the body', async () => {
    const outcome = await runHttpProbe(check('/large', { body_contains: 'needle' }), deps);
    expect(outcome.error_message).toBe('body does not contain "needle"');
    const early = await runHttpProbe(check('/large', { body_contains: 'xxxx' }), deps);
    expect(early.success).toBe(true);
  });

  it('sends the method, headers and body of the check', async () => {
    const before = server.requests.length;
    const outcome = await runHttpProbe(
      check('/echo', { method: 'PUT', headers: { 'x-token': 'abc' }, body: '{"a":1}' }),
      deps,
    );
    expect(outcome.success).toBe(true);
    expect(server.requests[before]).toMatchObject({ method: 'PUT', body: '{"a":1}' });
    expect(server.requests[before]?.headers['x-token']).toBe('abc');
  });

  it('passes HEAD checks', async () => {
    expect(await runHttpProbe(check('/ok', { method: 'HEAD' }), deps)).toMatchObject({ success: true });
  });

  it('reports a refused connection with status 0', async () => {
    const port = await closedPort();
    const outcome = await runHttpProbe({ ...check('/'), target_url: `http://127.0.0.1:${port}/` }, deps);
    expect(outcome).toMatchObject({ success: false, status_code: 0, error_message: 'connection refused' });
  });

  it('times out with the check timeout in the message', async () => {
    const outcome = await runHttpProbe(check('/slow', { timeout_ms: 200 }), deps);
    expect(outcome).toMatchObject({
      success: false,
      status_code: 0,
      error_message: 'timed out after 200 ms',
    });
  });

  it('follows redirects up to five and fails past that', async () => {
    expect(await runHttpProbe(check('/redirect/5'), deps)).toMatchObject({ success: true, status_code: 200 });
    const outcome = await runHttpProbe(check('/redirect/6'), deps);
    expect(outcome).toMatchObject({ success: false, status_code: 0, error_message: 'more than 5 redirects' });
  });

  it('refuses a loopback target when private targets are off', async () => {
    const outcome = await runHttpProbe(check('/ok'), { ...deps, allowPrivate: false });
    expect(outcome).toMatchObject({
      success: false,
      status_code: 0,
      error_message: 'destination 127.0.0.1 is a loopback address',
    });
  });

  it('refuses a host name that resolves to a private address', async () => {
    const resolve = async () => [{ address: '10.0.0.5', family: 4 as const }];
    const outcome = await runHttpProbe(
      { ...check('/'), target_url: 'http://db.internal.test/' },
      { ...deps, allowPrivate: false, resolve },
    );
    expect(outcome.error_message).toBe('destination 10.0.0.5 is a private address');
  });

  it('checks an https target against the injected CA', async () => {
    const resolve = async () => [{ address: '127.0.0.1', family: 4 as const }];
    const target = { ...check('/ok'), target_url: `https://localhost:${https.port}/ok` };
    expect(await runHttpProbe(target, { ...deps, resolve, tlsCa: [caCert] })).toMatchObject({
      success: true,
    });
    const untrusted = await runHttpProbe(target, { ...deps, resolve });
    expect(untrusted).toMatchObject({
      success: false,
      status_code: 0,
      error_message: 'certificate issued by an unknown CA',
      details: { error_code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' },
    });
  });

  it('fails an https target whose certificate names another host', async () => {
    const resolve = async () => [{ address: '127.0.0.1', family: 4 as const }];
    const target = { ...check('/ok'), target_url: `https://localhost:${wrongHost.port}/ok` };
    const outcome = await runHttpProbe(target, { ...deps, resolve, tlsCa: [caCert] });
    expect(outcome).toMatchObject({
      success: false,
      status_code: 0,
      error_message: 'hostname mismatch: certificate is for wrong.example',
      details: { error_code: 'ERR_TLS_CERT_ALTNAME_INVALID' },
    });
  });

  it('says an https target that answers in plain HTTP did not answer with TLS', async () => {
    const target = { ...check('/ok'), target_url: `https://127.0.0.1:${server.port}/ok` };
    const outcome = await runHttpProbe(target, deps);
    expect(outcome).toEqual(NOT_TLS);
  });

  it('fails an https target whose certificate has expired', async () => {
    const resolve = async () => [{ address: '127.0.0.1', family: 4 as const }];
    const target = { ...check('/ok'), target_url: `https://localhost:${expired.port}/ok` };
    const outcome = await runHttpProbe(target, { ...deps, resolve, tlsCa: [caCert] });
    expect(outcome).toMatchObject({
      error_message: 'certificate has expired',
      details: { error_code: 'CERT_HAS_EXPIRED' },
    });
  });

  it('fails an https target with a self-signed certificate', async () => {
    const resolve = async () => [{ address: '127.0.0.1', family: 4 as const }];
    const target = { ...check('/ok'), target_url: `https://localhost:${selfSigned.port}/ok` };
    const outcome = await runHttpProbe(target, { ...deps, resolve, tlsCa: [caCert] });
    expect(outcome).toMatchObject({
      error_message: 'self-signed certificate',
      details: { error_code: 'DEPTH_ZERO_SELF_SIGNED_CERT' },
    });
  });
});
