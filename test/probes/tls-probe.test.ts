import { once } from 'node:events';
import { createServer as createTcpServer, type Socket, type Server as TcpServer } from 'node:net';
import { createServer, type Server } from 'node:tls';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TlsProbeJob } from '../../lib/check-types/tls/tls.ts';
import { runTlsProbe } from '../../lib/check-types/tls/tls-probe.ts';
import { systemClock } from '../../lib/platform/clock.ts';
import type { ProbeDeps } from '../../lib/probes/types.ts';
import { createTlsFixtures, type KeyPair, type TlsFixtures } from '../support/tls-fixtures.ts';
import { WAIT } from '../support/wait.ts';
import { closedPort, portOf } from './support/http-server.ts';
import { NOT_TLS } from './support/outcomes.ts';

let fixtures: TlsFixtures;
const servers: (Server | TcpServer)[] = [];
const ports: Record<string, number> = {};

/** Each fixture server's accepted connections still open, by its port (the probe must close every one it makes). */
const open = new Map<number, Set<Socket>>();

async function listen(server: Server | TcpServer): Promise<number> {
  servers.push(server);
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  open.set(portOf(server), sockets);
  return portOf(server);
}

function tlsServer(pair: KeyPair): Server {
  // resume() reads to EOF, so the socket closes when the probe hangs up.
  const server = createServer(pair, (socket) => socket.resume().end());
  server.on('tlsClientError', () => {}); // the probe hangs up right after the handshake
  return server;
}

beforeAll(async () => {
  fixtures = createTlsFixtures();
  ports.valid = await listen(tlsServer(fixtures.valid));
  ports.soon = await listen(tlsServer(fixtures.expiringIn3Days));
  ports.expired = await listen(tlsServer(fixtures.expired10DaysAgo));
  ports.wrong = await listen(tlsServer(fixtures.wrongHost));
  ports.self = await listen(tlsServer(fixtures.selfSigned));
  // Sends its CA along with the leaf: untrusted, that CA is a self-signed certificate in the chain.
  ports.chain = await listen(tlsServer({ ...fixtures.valid, cert: fixtures.valid.cert + fixtures.caCert }));
  // Answers like a plain HTTP server, whatever it is sent.
  ports.plain = await listen(
    createTcpServer((socket) =>
      socket.on('error', () => {}).once('data', () => socket.end('HTTP/1.1 400 Bad Request\r\n\r\n')),
    ),
  );
  // Accepts TCP, never speaks TLS: the handshake can only time out.
  ports.silent = await listen(createTcpServer((socket) => socket.on('error', () => {}).resume()));
});

// Every connection a probe opened is closed by the time it answers, or soon after: a probe that
// leaked one would fail here, naming the server, instead of holding up the servers' close below.
afterEach(async () => {
  const leaked = () =>
    Object.entries(ports)
      .filter(([, port]) => (open.get(port)?.size ?? 0) > 0)
      .map(([name]) => name);
  await vi.waitFor(() => expect(leaked()).toEqual([]), WAIT);
});

afterAll(async () => {
  // What a failed check above left open must not hold the close up.
  for (const sockets of open.values()) for (const socket of sockets) socket.destroy();
  await Promise.all(
    servers.map((server) => {
      server.close();
      return once(server, 'close');
    }),
  );
});

const port = (name: string) => ports[name] ?? 0;
const check = (name: string, extra: Partial<TlsProbeJob> = {}): TlsProbeJob => ({
  check_type: 'tls',
  host: '127.0.0.1',
  port: port(name),
  servername: 'localhost',
  timeout_ms: 2000,
  ...extra,
});
const trusting = (): ProbeDeps => ({ clock: systemClock, allowPrivate: true, tlsCa: [fixtures.caCert] });

describe('tls probe', () => {
  it('passes a trusted, matching certificate far from expiry and records days left', async () => {
    const outcome = await runTlsProbe(check('valid'), trusting());
    expect(outcome).toMatchObject({
      success: true,
      status_code: 0,
      error_message: '',
      details: { days_left: 30 },
    });
  });

  it('matches an IP address servername against the IP SANs', async () => {
    const outcome = await runTlsProbe(check('valid', { servername: '127.0.0.1' }), trusting());
    expect(outcome.success).toBe(true);
  });

  it('degrades (does not fail) a certificate expiring within the threshold', async () => {
    const outcome = await runTlsProbe(check('soon'), trusting());
    expect(outcome).toMatchObject({
      success: true,
      degraded: true,
      error_message: 'certificate expires in 3 days (threshold 14)',
      details: { days_left: 3 },
    });
  });

  it('passes the same certificate under a smaller threshold', async () => {
    const outcome = await runTlsProbe(check('soon', { expiry_threshold_days: 2 }), trusting());
    expect(outcome).toMatchObject({ success: true, details: { days_left: 3 } });
    expect(outcome.degraded).toBeUndefined();
  });

  it('fails an expired certificate', async () => {
    const outcome = await runTlsProbe(check('expired'), trusting());
    expect(outcome).toMatchObject({
      success: false,
      error_message: 'certificate expired 10 days ago',
      details: { error_code: 'CERT_HAS_EXPIRED' },
    });
    expect(outcome.details?.days_left).toBeLessThan(0);
  });

  it('fails a certificate for another host name', async () => {
    const outcome = await runTlsProbe(check('wrong'), trusting());
    expect(outcome).toMatchObject({
      success: false,
      error_message: 'hostname mismatch: certificate is for wrong.example',
      details: { days_left: 30, error_code: 'ERR_TLS_CERT_ALTNAME_INVALID' },
    });
  });

  it('fails a self-signed certificate', async () => {
    const outcome = await runTlsProbe(check('self'), trusting());
    expect(outcome).toMatchObject({
      success: false,
      error_message: 'self-signed certificate',
      details: { error_code: 'DEPTH_ZERO_SELF_SIGNED_CERT' },
    });
  });

  it('fails a chain that ends in an untrusted self-signed CA', async () => {
    const outcome = await runTlsProbe(check('chain'), { clock: systemClock, allowPrivate: true });
    expect(outcome).toMatchObject({
      success: false,
      error_message: 'self-signed certificate in chain',
      details: { error_code: 'SELF_SIGNED_CERT_IN_CHAIN' },
    });
  });

  it('says the server did not answer with TLS, without OpenSSL text, and keeps the code', async () => {
    const outcome = await runTlsProbe(check('plain'), trusting());
    expect(outcome).toEqual(NOT_TLS);
  });

  it('fails a chain whose CA is not trusted', async () => {
    const outcome = await runTlsProbe(check('valid'), { clock: systemClock, allowPrivate: true });
    expect(outcome).toMatchObject({
      error_message: 'certificate issued by an unknown CA',
      details: { error_code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' },
    });
  });

  it('uses the check clock for the days left', async () => {
    const tenDaysOn = { now: () => Date.now() + 10 * 24 * 60 * 60 * 1000 };
    const outcome = await runTlsProbe(check('valid'), { ...trusting(), clock: tenDaysOn });
    expect(outcome.details?.days_left).toBe(20);
  });

  it('fails with "connection refused" on a closed port', async () => {
    const outcome = await runTlsProbe({ ...check('valid'), port: await closedPort() }, trusting());
    expect(outcome).toMatchObject({ success: false, error_message: 'connection refused' });
  });

  it('times out when the server never completes the handshake', async () => {
    const outcome = await runTlsProbe(check('silent', { timeout_ms: 200 }), trusting());
    expect(outcome).toMatchObject({ success: false, error_message: 'timed out after 200 ms' });
  });

  it('refuses a loopback target when private targets are off', async () => {
    const outcome = await runTlsProbe(check('valid'), { ...trusting(), allowPrivate: false });
    expect(outcome.error_message).toBe('destination 127.0.0.1 is a loopback address');
  });

  it('defaults the servername to the host', async () => {
    const resolve = async () => [{ address: '127.0.0.1', family: 4 as const }];
    const def: TlsProbeJob = {
      check_type: 'tls',
      host: 'localhost',
      port: port('valid'),
      timeout_ms: 2000,
    };
    expect(await runTlsProbe(def, { ...trusting(), resolve })).toMatchObject({ success: true });
  });
});
