import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProbe } from '../../lib/check-types/run-probe.ts';
import { systemClock } from '../../lib/platform/clock.ts';
import type { ProbeDeps } from '../../lib/probes/types.ts';
import { startDnsServer, type TestDnsServer } from '../support/dns-server.ts';
import { closedPort, startHttpServer, type TestHttpServer } from './support/http-server.ts';

let http: TestHttpServer;
let dns: TestDnsServer;
let closed: number;

beforeAll(async () => {
  http = await startHttpServer();
  dns = await startDnsServer({ 'svc.test': [{ type: 'A', address: '10.0.0.2' }] });
  closed = await closedPort();
});

afterAll(async () => {
  await http.close();
  await dns.close();
});

const deps: ProbeDeps = { clock: systemClock, allowPrivate: true };

describe('runProbe', () => {
  it('runs an http check', async () => {
    const outcome = await runProbe(
      { check_type: 'http', target_url: `${http.origin}/ok`, timeout_ms: 2000 },
      deps,
    );
    expect(outcome).toMatchObject({ success: true, status_code: 200 });
  });

  it('runs a tcp check', async () => {
    const outcome = await runProbe(
      { check_type: 'tcp', host: '127.0.0.1', port: http.port, timeout_ms: 2000 },
      deps,
    );
    expect(outcome).toMatchObject({ success: true, status_code: 0 });
  });

  it('runs a tls check', async () => {
    const outcome = await runProbe(
      { check_type: 'tls', host: '127.0.0.1', port: closed, timeout_ms: 2000 },
      deps,
    );
    expect(outcome).toMatchObject({ success: false, error_message: 'connection refused' });
  });

  it('runs a dns check', async () => {
    const def = {
      check_type: 'dns' as const,
      hostname: 'svc.test',
      record_type: 'A' as const,
      nameserver: dns.nameserver,
      timeout_ms: 2000,
    };
    expect(await runProbe(def, deps)).toMatchObject({ success: true, details: { answers: ['10.0.0.2'] } });
  });

  it('turns a check type without a probe into a failed outcome instead of throwing', async () => {
    const outcome = await runProbe(JSON.parse('{"check_type":"push","timeout_ms":1000}'), deps);
    expect(outcome).toMatchObject({ success: false, status_code: 0, latency_ms: 0 });
    expect(outcome.error_message).toMatch(/^unsupported check type/);
  });
});
