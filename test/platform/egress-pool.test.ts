import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type HttpRequestOptions, httpRequest } from '../../lib/egress/egress.ts';
import { ConnectionError, EgressDeniedError } from '../../lib/egress/egress-errors.ts';
import type { ResolvedAddress } from '../../lib/egress/egress-guard.ts';
import { createEgressPool, type EgressPool, type EgressPoolOptions } from '../../lib/egress/egress-pool.ts';
import { createTlsFixtures, type TlsFixtures } from '../support/tls-fixtures.ts';
import { type PoolReceiver, startPoolReceiver, startReceiverPair } from './pool-receiver.ts';

/**
 * Kept-alive pools against real HTTPS receivers on 127.0.0.1 and 127.0.0.2 (the test CA's
 * certificate names localhost and 127.0.0.1): `localhost` resolves through a map the test changes,
 * as DNS answers change.
 */

let tls: TlsFixtures;
let a: PoolReceiver;
let b: PoolReceiver;
let ca: string[];
const names = new Map<string, string>();
const resolve = async (host: string): Promise<ResolvedAddress[]> => {
  const address = names.get(host);
  return address ? [{ address, family: 4 }] : [];
};
const pools: EgressPool[] = [];

beforeAll(async () => {
  tls = createTlsFixtures();
  ca = [tls.caCert];
  [a, b] = await startReceiverPair(tls.valid);
});

afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
  await expect.poll(() => a.open() + b.open()).toBe(0);
});

afterAll(async () => {
  await a?.close();
  await b?.close();
});

function poolOf(options: EgressPoolOptions = {}): EgressPool {
  const pool = createEgressPool(options);
  pools.push(pool);
  return pool;
}

/** A webhook-like POST to localhost (as `names` resolves it) through `pool`, loopback allow-listed. */
function post(pool: EgressPool, more: Partial<HttpRequestOptions> = {}) {
  return httpRequest({
    url: `https://localhost:${a.port}/hook`,
    method: 'POST',
    body: '{"to_state":"down"}',
    timeoutMs: 5000,
    allowPrivate: false,
    allow: ['127.0.0.0/8'],
    resolve,
    ca,
    transport: pool.transport,
    ...more,
  });
}

describe('egress pools', () => {
  it('sends back to back to the same host on one connection', async () => {
    names.set('localhost', '127.0.0.1');
    const pool = poolOf();
    const [before, answered] = [a.connections(), a.requests()];
    for (let i = 0; i < 5; i += 1) expect((await post(pool)).status).toBe(200);
    expect(a.connections() - before).toBe(1);
    expect(a.requests() - answered).toBe(5);
    expect(a.open()).toBe(1);
  });

  it('connects to the new address when the answer changes, and closes the old pool', async () => {
    names.set('localhost', '127.0.0.1');
    const pool = poolOf();
    const [beforeA, beforeB] = [a.connections(), b.connections()];
    await post(pool);
    expect(a.open()).toBe(1);
    names.set('localhost', '127.0.0.2');
    const bAnswered = b.requests();
    expect((await post(pool)).status).toBe(200);
    expect(b.requests() - bAnswered).toBe(1);
    expect(b.connections() - beforeB).toBe(1);
    expect(a.connections() - beforeA).toBe(1);
    await expect.poll(() => a.open()).toBe(0);
    expect(pool.size()).toBe(1);
  });

  it('never dials a denied address, even for a host with a kept connection', async () => {
    names.set('localhost', '127.0.0.2');
    const pool = poolOf();
    // Only 127.0.0.2 is allow-listed: when the name moves to 127.0.0.1 it is a denied loopback.
    const only2 = { allow: ['127.0.0.2/32'] };
    await post(pool, only2);
    expect(b.open()).toBe(1);
    const [connectionsA, answeredB] = [a.connections(), b.requests()];
    names.set('localhost', '127.0.0.1');
    const denied = await post(pool, only2).catch((e: unknown) => e);
    expect(denied).toBeInstanceOf(EgressDeniedError);
    expect(denied).toMatchObject({ message: 'destination 127.0.0.1 is a loopback address' });
    expect(a.connections()).toBe(connectionsA);
    expect(b.requests()).toBe(answeredB);
    await expect.poll(() => b.open()).toBe(0);
    expect(pool.size()).toBe(0);

    names.set('localhost', '127.0.0.2');
    await post(pool, only2);
    names.set('localhost', '169.254.169.254');
    const everything = { allow: ['0.0.0.0/0'] };
    await expect(post(pool, everything)).rejects.toThrow(
      'destination 169.254.169.254 is a cloud metadata address',
    );
    expect(b.requests()).toBe(answeredB + 1);
    await expect.poll(() => b.open()).toBe(0);
  });

  it('takes the IPv4 address of a dual-stack answer, and stays on an address it has a pool for', async () => {
    const pool = poolOf();
    const dual = async (): Promise<ResolvedAddress[]> => [
      { address: '::1', family: 6 },
      { address: '127.0.0.1', family: 4 },
    ];
    const [beforeA, beforeB] = [a.connections(), b.connections()];
    await post(pool, { resolve: dual, allow: ['127.0.0.0/8', '::1/128'] });
    expect(a.connections() - beforeA).toBe(1);
    // Round robin: both addresses answered, 127.0.0.2 first; the kept 127.0.0.1 is used.
    const both = async (): Promise<ResolvedAddress[]> => [
      { address: '127.0.0.2', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ];
    await post(pool, { resolve: both, allow: ['127.0.0.0/8', '::1/128'] });
    expect(a.connections() - beforeA).toBe(1);
    expect(b.connections()).toBe(beforeB);
    expect(a.open()).toBe(1);
  });

  it('closes idle connections after the bound and connects anew after', async () => {
    names.set('localhost', '127.0.0.1');
    // The receiver keeps idle connections 30 s (and says so in Keep-Alive): the close is the pool's.
    const pool = poolOf({ keepAliveTimeoutMs: 200, keepAliveMaxTimeoutMs: 200 });
    const before = a.connections();
    await post(pool);
    expect(a.open()).toBe(1);
    // Well within the default idle time (4 s), so only the configured 200 ms can close it.
    await expect.poll(() => a.open(), { timeout: 2000 }).toBe(0);
    await post(pool);
    expect(a.connections() - before).toBe(2);
  });

  it('keeps connections of another SNI name or another CA bundle apart', async () => {
    names.set('localhost', '127.0.0.1');
    const pool = poolOf();
    const before = a.connections();
    const named = a.servernames.length;
    await post(pool);
    // The same address and port as an IP literal: no SNI name.
    await post(pool, { url: `https://127.0.0.1:${a.port}/hook` });
    await post(pool);
    expect(a.servernames.slice(named)).toEqual(['localhost', false]);
    // The same trust, another bundle (one more CA): a connection of its own.
    await post(pool, { ca: [tls.caCert, tls.selfSigned.cert] });
    expect(a.connections() - before).toBe(3);
    await post(pool, { ca });
    expect(a.connections() - before).toBe(3);
    expect(pool.size()).toBe(3);
  });

  it('closes the least recently used pool beyond the bound', async () => {
    names.set('localhost', '127.0.0.1');
    const pool = poolOf({ maxPools: 2 });
    await post(pool);
    await post(pool, { url: `https://127.0.0.1:${a.port}/hook` });
    await post(pool);
    expect(a.openNames().sort()).toEqual([false, 'localhost']);
    // A third pool (another CA bundle): the IP literal's, used least recently, closes.
    await post(pool, { ca: [tls.caCert, tls.selfSigned.cert] });
    await expect.poll(() => a.openNames().sort()).toEqual(['localhost', 'localhost']);
    expect(pool.size()).toBe(2);
  });

  it('closes every pool on shutdown and sends nothing after', async () => {
    names.set('localhost', '127.0.0.1');
    const pool = poolOf();
    await post(pool);
    await post(pool, { url: `https://127.0.0.1:${a.port}/hook` });
    expect(a.open()).toBe(2);
    await pool.close();
    await expect.poll(() => a.open() + b.open()).toBe(0);
    expect(pool.size()).toBe(0);
    const before = a.connections();
    const err = await post(pool).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect(a.connections()).toBe(before);
  });

  it('sends concurrent requests on at most the bounded number of connections', async () => {
    names.set('localhost', '127.0.0.1');
    const pool = poolOf({ connectionsPerPool: 2 });
    const before = a.connections();
    const answers = await Promise.all(Array.from({ length: 6 }, () => post(pool)));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(a.connections() - before).toBeLessThanOrEqual(2);
  });
});

describe('a receiver with a certificate for another name, pooled', () => {
  it('fails the TLS check as a fresh connection does', async () => {
    const wrong = await startPoolReceiver(tls.wrongHost, '127.0.0.1');
    try {
      names.set('localhost', '127.0.0.1');
      const pool = poolOf();
      const err = await post(pool, { url: `https://localhost:${wrong.port}/hook` }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConnectionError);
      expect(err).toMatchObject({ message: 'hostname mismatch: certificate is for wrong.example' });
    } finally {
      await wrong.close();
    }
  });
});
