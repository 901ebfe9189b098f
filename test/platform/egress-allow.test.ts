import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpRequestOptions, httpRequest } from '../../lib/egress/egress.ts';
import { CleartextDeniedError, EgressDeniedError } from '../../lib/egress/egress-errors.ts';
import {
  allowedLiteral,
  isAllowListed,
  type ResolvedAddress,
  resolveAllowed,
} from '../../lib/egress/egress-guard.ts';
import { undiciRequest } from '../../lib/egress/undici-client.ts';
import { startHttpServer, type TestHttpServer } from '../probes/support/http-server.ts';

const v4 = (address: string): ResolvedAddress => ({ address, family: 4 });
const v6 = (address: string): ResolvedAddress => ({ address, family: 6 });
const table = (entries: Record<string, ResolvedAddress[]>) => async (host: string) => entries[host] ?? [];

describe('the egress allow-list', () => {
  it('lets a listed private range through and keeps others denied', async () => {
    const resolve = table({ 'nas.lan.test': [v4('192.168.1.20')], 'db.corp.test': [v4('10.0.0.5')] });
    const allow = ['192.168.0.0/16'];
    await expect(resolveAllowed('nas.lan.test', { allowPrivate: false, allow, resolve })).resolves.toEqual([
      v4('192.168.1.20'),
    ]);
    await expect(resolveAllowed('db.corp.test', { allowPrivate: false, allow, resolve })).rejects.toThrow(
      'destination 10.0.0.5 is a private address',
    );
  });

  it('matches IPv6 ranges, and IPv4 ranges through IPv4-mapped addresses', () => {
    expect(isAllowListed('fd12:3456::1', ['fd00::/8'])).toBe(true);
    expect(isAllowListed('fe80::1', ['fd00::/8'])).toBe(false);
    expect(isAllowListed('::ffff:127.0.0.1', ['127.0.0.0/8'])).toBe(true);
    expect(isAllowListed('127.0.0.1', [])).toBe(false);
    expect(isAllowListed('not-an-ip', ['0.0.0.0/0'])).toBe(false);
  });

  it('checks IP literals against the list without resolving', () => {
    expect(allowedLiteral('[::1]', false, ['::1/128'])).toEqual({ address: '::1', family: 6 });
    expect(() => allowedLiteral('127.0.0.2', false, ['127.0.0.1/32'])).toThrow(EgressDeniedError);
  });

  it('never allows cloud metadata addresses, whatever the list says', async () => {
    const everything = ['0.0.0.0/0', '::/0'];
    for (const address of ['169.254.169.254', '169.254.170.2', '100.100.100.200', 'fd00:ec2::254']) {
      expect(() => allowedLiteral(address, false, everything)).toThrow('is a cloud metadata address');
    }
    const resolve = table({
      'meta.test': [v6('::ffff:169.254.169.254')],
      'imds.test': [v6('fd00:ec2::254')],
    });
    for (const host of ['meta.test', 'imds.test']) {
      await expect(
        resolveAllowed(host, {
          allowPrivate: false,
          allow: [...everything, '169.254.169.254/32', 'fd00:ec2::/32'],
          resolve,
        }),
      ).rejects.toThrow('is a cloud metadata address');
    }
  });

  it('denies the whole host when one address falls outside the list', async () => {
    const resolve = table({ 'mixed.test': [v4('192.168.1.20'), v4('10.0.0.5')] });
    await expect(
      resolveAllowed('mixed.test', { allowPrivate: false, allow: ['192.168.0.0/16'], resolve }),
    ).rejects.toThrow('destination 10.0.0.5 is a private address');
  });
});

/** A send on a fresh undici connection, as channels make without a pool. */
const send = (options: Omit<HttpRequestOptions, 'transport'>) =>
  httpRequest({ ...options, transport: undiciRequest });

/** The loopback server both httpRequest blocks send to (counts of connections are read before and after). */
let server: TestHttpServer;
beforeAll(async () => {
  server = await startHttpServer();
});
afterAll(async () => {
  await server.close();
});

describe('httpRequest with an allow-list', () => {
  it('reaches a loopback server only when its range is listed', async () => {
    const base = { url: `${server.origin}/ok`, timeoutMs: 5000, allowPrivate: false };
    const res = await send({ ...base, allow: ['127.0.0.0/8'] });
    expect(res.status).toBe(200);
    const connectionsBefore = server.connections();
    await expect(send(base)).rejects.toThrow('destination 127.0.0.1 is a loopback address');
    await expect(send({ ...base, allow: ['10.0.0.0/8'] })).rejects.toBeInstanceOf(EgressDeniedError);
    expect(server.connections()).toBe(connectionsBefore);
  });

  it('checks host names on connect against the list', async () => {
    const resolve = table({ 'receiver.lan.test': [v4('127.0.0.1')] });
    const url = `http://receiver.lan.test:${server.port}/ok`;
    const res = await send({
      url,
      timeoutMs: 5000,
      allowPrivate: false,
      allow: ['127.0.0.1/32'],
      resolve,
    });
    expect(res.status).toBe(200);
    await expect(send({ url, timeoutMs: 5000, allowPrivate: false, resolve })).rejects.toThrow(
      'destination 127.0.0.1 is a loopback address',
    );
  });
});

describe('httpRequest keeping http:// to the allow-list', () => {
  /** Options allowing 127.0.0.1 alone, http:// only to the allow-list, names resolved by `resolve`. */
  const httpOnlyToLoopback = (resolve: HttpRequestOptions['resolve']) => ({
    timeoutMs: 5000,
    allowPrivate: false,
    allow: ['127.0.0.1/32'],
    resolve,
    httpOnlyToAllowList: true,
  });

  it('sends http:// to an allow-listed address, by literal or by name', async () => {
    const resolve = table({ 'receiver.lan.test': [v4('127.0.0.1')] });
    const base = httpOnlyToLoopback(resolve);
    expect((await send({ ...base, url: `${server.origin}/ok` })).status).toBe(200);
    expect((await send({ ...base, url: `http://receiver.lan.test:${server.port}/ok` })).status).toBe(200);
  });

  it('refuses http:// to a public address, literal or resolved on connect, without connecting', async () => {
    const resolve = table({ 'hooks.public.test': [v4('93.184.216.34')] });
    const base = httpOnlyToLoopback(resolve);
    const before = server.connections();
    await expect(send({ ...base, url: 'http://93.184.216.34/x' })).rejects.toBeInstanceOf(
      CleartextDeniedError,
    );
    await expect(send({ ...base, url: `http://hooks.public.test:${server.port}/x` })).rejects.toThrow(
      'destination 93.184.216.34 is a public address, and http:// is sent only to the egress allow-list',
    );
    expect(server.connections()).toBe(before);
  });
});
