import type { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProbeThreads, startProbeThreads } from '../../lib/local/probe-threads.ts';
import { startModuleWorker } from '../../lib/platform/module-worker.ts';
import {
  closedPort,
  startHttpServer,
  startHttpsServer,
  type TestHttpServer,
} from '../probes/support/http-server.ts';
import { createTlsFixtures, type TlsFixtures } from '../support/tls-fixtures.ts';

// Probes on real worker threads against real loopback servers: the same outcomes and messages as
// on the event loop, the SSRF guard inside the thread, settings (trusted CAs) carried to it.

let http: TestHttpServer;
let https: TestHttpServer;
let tls: TlsFixtures;
const started: ProbeThreads[] = [];

beforeAll(async () => {
  tls = createTlsFixtures();
  http = await startHttpServer();
  https = await startHttpsServer(tls.valid);
});
afterAll(async () => {
  await Promise.all(started.map((threads) => threads.close()));
  await http.close();
  await https.close();
});

function threads(options: Partial<Parameters<typeof startProbeThreads>[0]> = {}): ProbeThreads {
  const pool = startProbeThreads({ threads: 2, allowPrivate: true, ...options });
  started.push(pool);
  return pool;
}

describe('probe threads', () => {
  it('run http probes that pass and fail, with the start time of each', async () => {
    const pool = threads();
    const before = Date.now();
    const [ok, bad, missing] = await Promise.all([
      pool.prober({
        check_type: 'http',
        target_url: `${http.origin}/ok`,
        body_contains: 'ok',
        timeout_ms: 2000,
      }),
      pool.prober({ check_type: 'http', target_url: `${http.origin}/status/503`, timeout_ms: 2000 }),
      pool.prober({
        check_type: 'http',
        target_url: `${http.origin}/ok`,
        body_contains: 'nope',
        timeout_ms: 2000,
      }),
    ]);
    expect(ok?.outcome).toMatchObject({ success: true, status_code: 200, error_message: '' });
    expect(ok?.startedMs).toBeGreaterThanOrEqual(before);
    expect(ok?.startedMs).toBeLessThanOrEqual(Date.now());
    expect(bad?.outcome).toMatchObject({
      success: false,
      status_code: 503,
      error_message: 'expected status 200, got 503',
    });
    expect(missing?.outcome).toMatchObject({ success: false, error_message: 'body does not contain "nope"' });
    expect(pool.inFlight).toBe(0);
  });

  it('answer every one of many concurrent probes', async () => {
    const pool = threads();
    const before = http.requests.length;
    const outcomes = await Promise.all(
      Array.from({ length: 200 }, () =>
        pool.prober({ check_type: 'http', target_url: `${http.origin}/ok`, timeout_ms: 5000 }),
      ),
    );
    expect(outcomes.filter((o) => o.outcome.success)).toHaveLength(200);
    expect(http.requests.length - before).toBe(200);
  });

  it('run tcp probes (connection refused) and tls probes with the CA they were given', async () => {
    const pool = threads({ tlsCa: [tls.caCert] });
    const port = await closedPort();
    const [refused, certificate] = await Promise.all([
      pool.prober({ check_type: 'tcp', host: '127.0.0.1', port, timeout_ms: 2000 }),
      pool.prober({ check_type: 'tls', host: '127.0.0.1', port: https.port, timeout_ms: 2000 }),
    ]);
    expect(refused?.outcome).toMatchObject({ success: false, error_message: 'connection refused' });
    expect(certificate?.outcome).toMatchObject({ success: true });
    expect(certificate?.outcome.details).toMatchObject({ days_left: expect.any(Number) });
  });

  it('apply the SSRF guard inside the thread: a private target is refused without a connection', async () => {
    const pool = threads({ allowPrivate: false });
    const connections = http.connections();
    const { outcome } = await pool.prober({
      check_type: 'http',
      target_url: `${http.origin}/ok`,
      timeout_ms: 2000,
    });
    expect(outcome).toMatchObject({
      success: false,
      status_code: 0,
      error_message: expect.stringContaining('destination 127.0.0.1 is a loopback address'),
    });
    expect(http.connections()).toBe(connections);
  });

  it('replace a thread that dies: its probes answer as failed, the next ones run on the new thread', async () => {
    const workers: Worker[] = [];
    const pool = threads({
      threads: 1,
      startWorker: (name, workerData) => {
        const worker = startModuleWorker(new URL('../../lib/check-types/probe-thread.ts', import.meta.url), {
          name,
          workerData,
        });
        workers.push(worker);
        return worker;
      },
    });
    const seen = http.requests.length;
    const slow = pool.prober({ check_type: 'http', target_url: `${http.origin}/slow`, timeout_ms: 10_000 });
    await expect.poll(() => http.requests.length).toBeGreaterThan(seen);
    await workers[0]?.terminate();
    expect((await slow).outcome).toMatchObject({ success: false, error_message: 'probe thread stopped' });
    const next = await pool.prober({ check_type: 'http', target_url: `${http.origin}/ok`, timeout_ms: 5000 });
    expect(next.outcome).toMatchObject({ success: true, status_code: 200 });
    expect(workers).toHaveLength(2);
  });

  it('answer probes still out at close as failed, and refuse new ones', async () => {
    const pool = threads();
    const slow = pool.prober({ check_type: 'http', target_url: `${http.origin}/slow`, timeout_ms: 10_000 });
    // Wait until the thread has the request (the server saw it), then stop the threads.
    const seen = http.requests.length;
    await expect.poll(() => http.requests.length).toBeGreaterThan(seen);
    await pool.close();
    expect((await slow).outcome).toMatchObject({ success: false, error_message: 'probe thread stopped' });
    const after = await pool.prober({
      check_type: 'http',
      target_url: `${http.origin}/ok`,
      timeout_ms: 2000,
    });
    expect(after.outcome).toMatchObject({ success: false, error_message: 'probe thread stopped' });
  });
});
