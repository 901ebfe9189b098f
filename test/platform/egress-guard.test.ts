import { once } from 'node:events';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectionError, EgressDeniedError, InvalidUrlError } from '../../lib/egress/egress-errors.ts';
import {
  checkUrl,
  createGuardedLookup,
  type ResolvedAddress,
  resolveAllowed,
} from '../../lib/egress/egress-guard.ts';
import { listenTcp } from '../probes/support/http-server.ts';

/** A resolver over a fixed table that counts its calls. */
function fakeResolver(table: Record<string, ResolvedAddress[]>) {
  const calls: string[] = [];
  const resolve = async (host: string) => {
    calls.push(host);
    return table[host] ?? [];
  };
  return { resolve, calls };
}

const v4 = (address: string): ResolvedAddress => ({ address, family: 4 });

describe('resolveAllowed', () => {
  it('denies an IP literal on a private address without resolving', async () => {
    const { resolve, calls } = fakeResolver({});
    const err = await resolveAllowed('10.0.0.5', { allowPrivate: false, resolve }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EgressDeniedError);
    expect(err).toMatchObject({ message: 'destination 10.0.0.5 is a private address', address: '10.0.0.5' });
    expect(calls).toEqual([]);
  });

  it('denies a host name whose resolver returns a private address', async () => {
    const { resolve } = fakeResolver({ 'internal.test': [v4('10.0.0.5')] });
    await expect(resolveAllowed('internal.test', { allowPrivate: false, resolve })).rejects.toMatchObject({
      name: 'EgressDeniedError',
      message: 'destination 10.0.0.5 is a private address',
      host: 'internal.test',
    });
  });

  it('denies the whole host when any one of its addresses is denied', async () => {
    const { resolve } = fakeResolver({ 'mixed.test': [v4('93.184.216.34'), v4('127.0.0.1')] });
    await expect(resolveAllowed('mixed.test', { allowPrivate: false, resolve })).rejects.toThrow(
      'destination 127.0.0.1 is a loopback address',
    );
  });

  it('returns public addresses', async () => {
    const { resolve } = fakeResolver({
      'public.test': [v4('93.184.216.34'), { address: '2606:4700::1', family: 6 }],
    });
    await expect(resolveAllowed('public.test', { allowPrivate: false, resolve })).resolves.toHaveLength(2);
  });

  it('allows private addresses when asked, but never cloud metadata', async () => {
    const { resolve } = fakeResolver({
      'lan.test': [v4('192.168.1.10')],
      'meta.test': [v4('169.254.169.254')],
    });
    await expect(resolveAllowed('lan.test', { allowPrivate: true, resolve })).resolves.toEqual([
      v4('192.168.1.10'),
    ]);
    await expect(resolveAllowed('meta.test', { allowPrivate: true, resolve })).rejects.toThrow(
      'destination 169.254.169.254 is a cloud metadata address',
    );
  });

  it('checks bracketed and IPv4-mapped IPv6 literals', async () => {
    await expect(resolveAllowed('[::1]', { allowPrivate: false })).rejects.toThrow('is a loopback address');
    await expect(resolveAllowed('::ffff:10.1.2.3', { allowPrivate: false })).rejects.toThrow(
      'is a private address',
    );
  });

  it('reports a host that resolves to nothing as a connection error', async () => {
    const { resolve } = fakeResolver({});
    const err = await resolveAllowed('nowhere.test', { allowPrivate: false, resolve }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err).toMatchObject({ code: 'ENOTFOUND', message: 'could not resolve host nowhere.test' });
  });
});

describe('createGuardedLookup', () => {
  let port: number;
  let closeServer: () => Promise<void>;

  beforeAll(async () => {
    ({ port, close: closeServer } = await listenTcp((socket) => socket.end()));
  });

  afterAll(() => closeServer());

  it('connects to the checked address with a single resolution', async () => {
    // A rebinding resolver: the second answer would be private, but there is no second lookup.
    let calls = 0;
    const resolve = async () => [v4(calls++ === 0 ? '127.0.0.1' : '10.0.0.5')];
    const socket = connect({
      host: 'svc.test',
      port,
      lookup: createGuardedLookup({ allowPrivate: true, resolve }),
    });
    await once(socket, 'connect');
    expect(socket.remoteAddress).toBe('127.0.0.1');
    expect(calls).toBe(1);
    socket.destroy();
  });

  it('fails the socket with EgressDeniedError before connecting', async () => {
    const resolve = async () => [v4('127.0.0.1')];
    const socket = connect({
      host: 'svc.test',
      port,
      lookup: createGuardedLookup({ allowPrivate: false, resolve }),
    });
    const [err] = await once(socket, 'error').catch((e: unknown) => [e]);
    expect(err).toBeInstanceOf(EgressDeniedError);
    expect(socket.remoteAddress).toBeUndefined();
  });

  it('answers both callback shapes and honours the family asked for', async () => {
    const resolve = async () => [v4('192.168.0.2'), { address: 'fd00::2', family: 6 as const }];
    const lookup = createGuardedLookup({ allowPrivate: true, resolve });
    const single = await new Promise((res) => lookup('a.test', { family: 6 }, (...args) => res(args)));
    expect(single).toEqual([null, 'fd00::2', 6]);
    const all = await new Promise((res) => lookup('a.test', { all: true }, (...args) => res(args)));
    expect(all).toEqual([null, [v4('192.168.0.2'), { address: 'fd00::2', family: 6 }]]);
  });
});

describe('checkUrl', () => {
  it('accepts an http URL whose host resolves to a public address', async () => {
    const { resolve } = fakeResolver({ 'hooks.test': [v4('93.184.216.34')] });
    const url = await checkUrl('https://hooks.test/path?q=1', { allowPrivate: false, resolve });
    expect(url.href).toBe('https://hooks.test/path?q=1');
  });

  it('rejects schemes other than http and https', async () => {
    await expect(checkUrl('ftp://example.com/file', { allowPrivate: true })).rejects.toThrow(InvalidUrlError);
    await expect(checkUrl('file:///etc/passwd', { allowPrivate: true })).rejects.toThrow(
      'unsupported URL scheme file: use http or https',
    );
    await expect(checkUrl('not a url', { allowPrivate: true })).rejects.toThrow('invalid URL: not a url');
  });

  it('rejects loopback, private and metadata destinations, in any spelling', async () => {
    const denied = [
      'http://127.0.0.1:8080/',
      'http://localhost/',
      'http://[::1]/',
      'http://2130706433/',
      'http://0x7f.1/',
      'http://[::ffff:169.254.169.254]/latest/meta-data',
      'http://169.254.169.254/latest/meta-data',
      'http://10.0.0.5/',
    ];
    for (const url of denied) {
      await expect(checkUrl(url, { allowPrivate: false }), url).rejects.toThrow(EgressDeniedError);
    }
  });
});
