import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TcpProbeJob } from '../../lib/check-types/tcp/tcp.ts';
import { runTcpProbe } from '../../lib/check-types/tcp/tcp-probe.ts';
import { systemClock } from '../../lib/platform/clock.ts';
import type { ProbeDeps } from '../../lib/probes/types.ts';
import { closedPort, listenTcp } from './support/http-server.ts';

let port: number;
let closeServer: () => Promise<void>;
let accepted = 0;

beforeAll(async () => {
  ({ port, close: closeServer } = await listenTcp((socket) => {
    accepted += 1;
    socket.on('error', () => {});
    socket.end();
  }));
});

afterAll(() => closeServer());

const deps: ProbeDeps = { clock: systemClock, allowPrivate: true };
const check = (extra: Partial<TcpProbeJob> = {}): TcpProbeJob => ({
  check_type: 'tcp',
  host: '127.0.0.1',
  port,
  timeout_ms: 2000,
  ...extra,
});

describe('tcp probe', () => {
  it('passes when the port accepts a connection', async () => {
    const outcome = await runTcpProbe(check(), deps);
    expect(outcome).toEqual({
      success: true,
      status_code: 0,
      latency_ms: outcome.latency_ms,
      error_message: '',
    });
    expect(Number.isInteger(outcome.latency_ms)).toBe(true);
  });

  it('resolves a host name through the guard and connects to its address', async () => {
    const resolve = async () => [{ address: '127.0.0.1', family: 4 as const }];
    const outcome = await runTcpProbe(check({ host: 'svc.test' }), { ...deps, resolve });
    expect(outcome.success).toBe(true);
  });

  it('fails with "connection refused" on a closed port', async () => {
    const outcome = await runTcpProbe(check({ port: await closedPort() }), deps);
    expect(outcome).toMatchObject({ success: false, status_code: 0, error_message: 'connection refused' });
  });

  it('times out within the check timeout, resolution included', async () => {
    const resolve = () => new Promise<never>(() => {}); // a resolver that never answers
    const outcome = await runTcpProbe(check({ host: 'hang.test', timeout_ms: 200 }), { ...deps, resolve });
    expect(outcome).toMatchObject({ success: false, error_message: 'timed out after 200 ms' });
  });

  it('refuses a loopback target when private targets are off, without connecting', async () => {
    const before = accepted;
    const outcome = await runTcpProbe(check(), { ...deps, allowPrivate: false });
    expect(outcome).toMatchObject({
      success: false,
      error_message: 'destination 127.0.0.1 is a loopback address',
    });
    expect(accepted).toBe(before);
  });

  it('reports a host that does not resolve', async () => {
    const resolve = async () => [];
    const outcome = await runTcpProbe(check({ host: 'gone.test' }), { ...deps, resolve });
    expect(outcome.error_message).toBe('could not resolve host gone.test');
  });
});
