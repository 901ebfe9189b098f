import * as grpc from '@grpc/grpc-js';
import { HealthImplementation, service as healthService } from 'grpc-health-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grpcCheckType } from '../../lib/check-types/grpc/grpc.ts';
import { runGrpcProbe } from '../../lib/check-types/grpc/grpc-probe.ts';
import { systemClock } from '../../lib/platform/clock.ts';
import type { ProbeDeps } from '../../lib/probes/types.ts';
import { closedPort } from '../probes/support/http-server.ts';
import { createTlsFixtures, type TlsFixtures } from '../support/tls-fixtures.ts';

const deps: ProbeDeps = { clock: systemClock, allowPrivate: true };
const servers: grpc.Server[] = [];
let fixtures: TlsFixtures;
const ports = { plain: 0, tls: 0, custom: 0 };
/** What the custom server's Check handler saw last. */
let seenMetadata: Record<string, unknown> = {};

async function start(
  setup: (server: grpc.Server) => void,
  credentials: grpc.ServerCredentials,
): Promise<number> {
  const server = new grpc.Server();
  setup(server);
  servers.push(server);
  return new Promise((resolve, reject) => {
    server.bindAsync('127.0.0.1:0', credentials, (err, port) => (err ? reject(err) : resolve(port)));
  });
}

const statuses = {
  '': 'SERVING',
  'shop.Orders': 'SERVING',
  'shop.Stock': 'NOT_SERVING',
  'shop.Mail': 'UNKNOWN',
} as const;

beforeAll(async () => {
  fixtures = createTlsFixtures();
  ports.plain = await start(
    (s) => new HealthImplementation({ ...statuses }).addToServer(s),
    grpc.ServerCredentials.createInsecure(),
  );
  ports.tls = await start(
    (s) => new HealthImplementation({ ...statuses }).addToServer(s),
    grpc.ServerCredentials.createSsl(null, [
      {
        private_key: Buffer.from(fixtures.selfSigned.key),
        cert_chain: Buffer.from(fixtures.selfSigned.cert),
      },
    ]),
  );
  // A health service of our own: records metadata, echoes it in an error, or never answers.
  ports.custom = await start((s) => {
    s.addService(healthService, {
      check(call: grpc.ServerUnaryCall<{ service: string }, unknown>, callback: grpc.sendUnaryData<unknown>) {
        seenMetadata = call.metadata.getMap();
        if (call.request.service === 'echo') {
          callback({
            code: grpc.status.PERMISSION_DENIED,
            details: `bad token ${String(seenMetadata.authorization)}`,
          });
        } else if (call.request.service !== 'slow') {
          callback(null, { status: 'SERVING' });
        } // slow: never answers
      },
      watch() {},
    });
  }, grpc.ServerCredentials.createInsecure());
});

afterAll(async () => {
  for (const server of servers) server.forceShutdown();
});

const job = (extra: Partial<Parameters<typeof runGrpcProbe>[0]> = {}) => ({
  check_type: 'grpc' as const,
  host: '127.0.0.1',
  port: ports.plain,
  timeout_ms: 3000,
  ...extra,
});

describe('grpc check type', () => {
  it('is up when the server as a whole is SERVING', async () => {
    const outcome = await runGrpcProbe(job(), deps);
    expect(outcome).toMatchObject({ success: true, error_message: '', details: { grpc_status: 'SERVING' } });
  });

  it('asks about the named service', async () => {
    expect(await runGrpcProbe(job({ service: 'shop.Orders' }), deps)).toMatchObject({ success: true });
    expect(await runGrpcProbe(job({ service: 'shop.Stock' }), deps)).toMatchObject({
      success: false,
      error_message: 'health status NOT_SERVING',
      details: { grpc_status: 'NOT_SERVING' },
    });
    expect(await runGrpcProbe(job({ service: 'shop.Mail' }), deps)).toMatchObject({
      success: false,
      error_message: 'health status UNKNOWN',
    });
  });

  it('is down for a service the server does not know', async () => {
    expect(await runGrpcProbe(job({ service: 'shop.Nope' }), deps)).toMatchObject({
      success: false,
      error_message: 'health status SERVICE_UNKNOWN: the server does not know service "shop.Nope"',
      details: { grpc_status: 'SERVICE_UNKNOWN' },
    });
  });

  it('speaks TLS, trusting the certificate given as ca_pem', async () => {
    const tlsJob = job({ port: ports.tls, use_tls: true });
    const untrusted = await runGrpcProbe(tlsJob, deps);
    expect(untrusted.success).toBe(false);
    expect(untrusted.error_message).toBe('could not connect: self-signed certificate');
    const trusted = await runGrpcProbe({ ...tlsJob, tls: { ca_pem: fixtures.selfSigned.cert } }, deps);
    expect(trusted).toMatchObject({ success: true, details: { grpc_status: 'SERVING' } });
    const byName = await runGrpcProbe(
      { ...tlsJob, host: 'localhost', tls: { ca_pem: fixtures.selfSigned.cert } },
      deps,
    );
    expect(byName.success).toBe(true);
    const skipped = await runGrpcProbe({ ...tlsJob, tls: { skip_verify: true } }, deps);
    expect(skipped.success).toBe(true);
    expect(skipped.details?.tls_warning).toBe('certificate not verified (skip_verify)');
    expect(trusted.details?.tls_warning).toBeUndefined();
  });

  it('refuses a name whose certificate does not match', async () => {
    const outcome = await runGrpcProbe(
      job({ port: ports.tls, use_tls: true, host: 'other.test', tls: { ca_pem: fixtures.selfSigned.cert } }),
      { ...deps, resolve: async () => [{ address: '127.0.0.1', family: 4 }] },
    );
    expect(outcome.success).toBe(false);
    expect(outcome.error_message).toBe(
      "could not connect: Hostname/IP does not match certificate's altnames: Host: other.test. is not in the cert's altnames: DNS:localhost, IP Address:127.0.0.1",
    );
  });

  it('sends the metadata, and hides it when the server echoes it', async () => {
    const token = 'Bearer s3cr3t-grpc-token-value';
    const up = await runGrpcProbe(job({ port: ports.custom, metadata: { authorization: token } }), deps);
    expect(up.success).toBe(true);
    expect(seenMetadata.authorization).toBe(token);
    const echoed = await runGrpcProbe(
      job({ port: ports.custom, service: 'echo', metadata: { authorization: token } }),
      deps,
    );
    expect(echoed.success).toBe(false);
    expect(echoed.error_message).toMatch(/^gRPC PERMISSION_DENIED: bad token /);
    expect(echoed.error_message).not.toContain('s3cr3t-grpc-token-value');
  });

  it('is down with "connection refused" when nothing listens', async () => {
    const outcome = await runGrpcProbe(job({ port: await closedPort() }), deps);
    expect(outcome).toMatchObject({ success: false, error_message: 'connection refused' });
  });

  it('times out after timeout_ms when the server does not answer', async () => {
    const outcome = await runGrpcProbe(job({ port: ports.custom, service: 'slow', timeout_ms: 300 }), deps);
    expect(outcome).toMatchObject({ success: false, error_message: 'timed out after 300 ms' });
  });

  it('refuses a private target without allowPrivate', async () => {
    const outcome = await runGrpcProbe(job(), { ...deps, allowPrivate: false });
    expect(outcome.success).toBe(false);
    expect(outcome.error_message).toMatch(/destination 127\.0\.0\.1 is .*loopback/);
  });
});

describe('grpc config', () => {
  it('accepts a full config and names the field of a bad one', () => {
    expect(
      grpcCheckType.input.safeParse({
        host: 'api.test',
        port: 443,
        service: 'a.B',
        use_tls: true,
        metadata: { 'x-key': 'v' },
      }).success,
    ).toBe(true);
    const bad = grpcCheckType.input.safeParse({
      host: 'api.test',
      port: 443,
      metadata: { 'Grpc-Timeout': '1' },
    });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['metadata', 'Grpc-Timeout']);
  });
});
