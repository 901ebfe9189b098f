import { once } from 'node:events';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpTransport, httpRequest } from '../../lib/egress/egress.ts';
import {
  ConnectionError,
  EgressDeniedError,
  TimeoutError,
  TooManyRedirectsError,
} from '../../lib/egress/egress-errors.ts';
import { createEgressPool } from '../../lib/egress/egress-pool.ts';
import { http1Request } from '../../lib/egress/http1-client.ts';
import { undiciRequest } from '../../lib/egress/undici-client.ts';
import { closedPort, portOf, startHttpServer, type TestHttpServer } from '../probes/support/http-server.ts';

let server: TestHttpServer;
let other: TestHttpServer;
const pool = createEgressPool();

beforeAll(async () => {
  server = await startHttpServer();
  other = await startHttpServer();
});

afterAll(async () => {
  await pool.close();
  await server.close();
  await other.close();
});

/**
 * Channels and actions send with undici on kept-alive pools, probes with the hand-written client
 * on fresh connections: all behave alike but for the connection.
 */
const transports: [string, HttpTransport, 'fresh' | 'kept'][] = [
  ['undici', undiciRequest, 'fresh'],
  ['the hand-written client', http1Request, 'fresh'],
  ['undici pools', pool.transport, 'kept'],
];

describe.each(transports)('with %s', (_name, transport, connection) => {
  const local = { allowPrivate: true, timeoutMs: 2000, transport };

  describe('httpRequest', () => {
    it('returns status, headers, body prefix and the final URL', async () => {
      const res = await httpRequest({ ...local, url: `${server.origin}/ok` });
      expect(res).toMatchObject({ status: 200, redirects: 0, finalUrl: `${server.origin}/ok` });
      expect(res.bodyPrefix.toString()).toBe('all ok');
      expect(Number.isInteger(res.latencyMs)).toBe(true);
      expect(res.headers['content-length']).toBe('6');
    });

    it(`uses a ${connection === 'fresh' ? 'fresh connection for every request' : 'kept connection again'}`, async () => {
      await httpRequest({ ...local, url: `${server.origin}/ok` });
      const before = server.connections();
      await httpRequest({ ...local, url: `${server.origin}/ok` });
      await httpRequest({ ...local, url: `${server.origin}/ok` });
      expect(server.connections() - before).toBe(connection === 'fresh' ? 2 : 0);
    });

    it('sends method, headers and body', async () => {
      const res = await httpRequest({
        ...local,
        url: `${server.origin}/echo`,
        method: 'post',
        headers: { 'content-type': 'text/plain', 'x-probe': 'yes' },
        body: 'héllo',
      });
      const echo = JSON.parse(res.bodyPrefix.toString());
      expect(echo).toMatchObject({ method: 'POST', body: 'héllo' });
      expect(echo.headers).toMatchObject({ 'x-probe': 'yes', 'content-length': '6', 'user-agent': 'vigil' });
    });

    it('follows a redirect chain and counts the hops', async () => {
      const res = await httpRequest({ ...local, url: `${server.origin}/redirect/5` });
      expect(res).toMatchObject({ status: 200, redirects: 5, finalUrl: `${server.origin}/ok` });
    });

    it('fails past the redirect limit', async () => {
      const err = await httpRequest({ ...local, url: `${server.origin}/redirect/6` }).catch(
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(TooManyRedirectsError);
      expect(err).toMatchObject({ message: 'more than 5 redirects' });
      await expect(
        httpRequest({ ...local, url: `${server.origin}/redirect/2`, maxRedirects: 1 }),
      ).rejects.toThrow('more than 1 redirects');
    });

    it('turns a POST into a GET without body on 303 and keeps it on 307', async () => {
      const to = (status: number) =>
        `${server.origin}/redirect-to?status=${status}&location=${encodeURIComponent('/echo')}`;
      const post = { ...local, method: 'POST', body: 'payload', headers: { 'content-type': 'text/plain' } };
      const after303 = JSON.parse((await httpRequest({ ...post, url: to(303) })).bodyPrefix.toString());
      expect(after303).toMatchObject({ method: 'GET', body: '' });
      expect(after303.headers['content-type']).toBeUndefined();
      const after307 = JSON.parse((await httpRequest({ ...post, url: to(307) })).bodyPrefix.toString());
      expect(after307).toMatchObject({ method: 'POST', body: 'payload' });
    });

    it("drops the caller's headers, custom ones included, when a redirect leaves the origin", async () => {
      const headers = { authorization: 'Bearer secret', 'x-api-key': 'k3y', accept: 'text/plain' };
      const to = (origin: string) =>
        `${server.origin}/redirect-to?location=${encodeURIComponent(`${origin}/echo`)}`;
      const away = JSON.parse(
        (await httpRequest({ ...local, url: to(other.origin), headers })).bodyPrefix.toString(),
      );
      expect(away.headers.authorization).toBeUndefined();
      expect(away.headers['x-api-key']).toBeUndefined();
      expect(away.headers.accept).toBe('text/plain');
      expect(away.headers['user-agent']).toBe('vigil');
      const home = JSON.parse(
        (await httpRequest({ ...local, url: to(server.origin), headers })).bodyPrefix.toString(),
      );
      expect(home.headers).toMatchObject(headers);
    });

    it('keeps at most maxBodyBytes and stops reading there', async () => {
      const res = await httpRequest({ ...local, url: `${server.origin}/large`, maxBodyBytes: 1000 });
      expect(res.bodyPrefix.length).toBe(1000);
      const none = await httpRequest({ ...local, url: `${server.origin}/large`, maxBodyBytes: 0 });
      expect(none.bodyPrefix.length).toBe(0);
    });

    it('times out a server that never answers', async () => {
      const err = await httpRequest({ ...local, url: `${server.origin}/slow`, timeoutMs: 200 }).catch(
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(TimeoutError);
      expect(err).toMatchObject({ message: 'timed out after 200 ms', timeoutMs: 200 });
    });

    it('counts the body read against the timeout', async () => {
      await expect(
        httpRequest({ ...local, url: `${server.origin}/slow-body`, timeoutMs: 200 }),
      ).rejects.toThrow('timed out after 200 ms');
    });

    it('stops when the caller aborts', async () => {
      const controller = new AbortController();
      const pending = httpRequest({ ...local, url: `${server.origin}/slow`, signal: controller.signal });
      controller.abort(new Error('shutting down'));
      await expect(pending).rejects.toThrow('shutting down');
    });

    it('reports a refused connection with its code', async () => {
      const port = await closedPort();
      const err = await httpRequest({ ...local, url: `http://127.0.0.1:${port}/` }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConnectionError);
      expect(err).toMatchObject({ code: 'ECONNREFUSED', message: 'connection refused' });
    });
  });

  describe('httpRequest SSRF guard', () => {
    it('denies a loopback URL before connecting when private targets are off', async () => {
      const before = server.connections();
      const err = await httpRequest({
        url: `${server.origin}/ok`,
        timeoutMs: 2000,
        allowPrivate: false,
        transport,
      }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(EgressDeniedError);
      expect(err).toMatchObject({ message: 'destination 127.0.0.1 is a loopback address' });
      expect(server.connections()).toBe(before);
    });

    it('denies a host name that resolves to a private address', async () => {
      const resolve = async () => [{ address: '10.0.0.5', family: 4 as const }];
      await expect(
        httpRequest({
          url: 'http://internal.test/',
          timeoutMs: 2000,
          allowPrivate: false,
          transport,
          resolve,
        }),
      ).rejects.toThrow('destination 10.0.0.5 is a private address');
    });

    it('connects to the resolved address of a host name when allowed', async () => {
      const resolve = async () => [{ address: '127.0.0.1', family: 4 as const }];
      const res = await httpRequest({ ...local, url: `http://svc.test:${server.port}/echo`, resolve });
      expect(JSON.parse(res.bodyPrefix.toString()).headers.host).toBe(`svc.test:${server.port}`);
    });

    it('re-checks every redirect hop', async () => {
      // Metadata stays closed even with private targets on, so the loopback first hop can show it.
      const literal = encodeURIComponent('http://169.254.169.254/latest/meta-data/');
      await expect(
        httpRequest({ ...local, url: `${server.origin}/redirect-to?location=${literal}` }),
      ).rejects.toThrow('destination 169.254.169.254 is a cloud metadata address');
      const resolve = async () => [{ address: '169.254.169.254', family: 4 as const }];
      const named = encodeURIComponent('http://metadata.test/');
      const err = await httpRequest({
        ...local,
        resolve,
        url: `${server.origin}/redirect-to?location=${named}`,
      }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(EgressDeniedError);
    });

    it('rejects a redirect to a scheme other than http and https', async () => {
      const location = encodeURIComponent('file:///etc/passwd');
      await expect(
        httpRequest({ ...local, url: `${server.origin}/redirect-to?location=${location}` }),
      ).rejects.toThrow('unsupported URL scheme file');
    });
  });

  describe('httpRequest on odd responses', () => {
    /** Answers every request on a raw socket with `raw`, then closes. */
    async function rawOrigin(raw: string): Promise<{ url: string; close: () => Promise<void> }> {
      const server = createServer((socket) => {
        socket.on('error', () => {});
        socket.once('data', () => socket.end(raw));
      });
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      return {
        url: `http://127.0.0.1:${portOf(server)}/`,
        close: async () => {
          server.close();
          await once(server, 'close');
        },
      };
    }

    it("does not keep a redirect's body, even without a Location to follow", async () => {
      const origin = await rawOrigin('HTTP/1.1 302 Found\r\ncontent-length: 5\r\n\r\nhello');
      const res = await httpRequest({ ...local, url: origin.url });
      expect(res).toMatchObject({ status: 302, redirects: 0 });
      expect(res.bodyPrefix.length).toBe(0);
      await origin.close();
    });

    it('skips interim responses and decodes a chunked body', async () => {
      const origin = await rawOrigin(
        'HTTP/1.1 103 Early Hints\r\nlink: </a>\r\n\r\n' +
          'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n',
      );
      const res = await httpRequest({ ...local, url: origin.url });
      expect(res.status).toBe(200);
      expect(res.bodyPrefix.toString()).toBe('abcde');
      await origin.close();
    });

    it('reports a body cut short as a reset connection', async () => {
      const origin = await rawOrigin('HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nabc');
      const err = await httpRequest({ ...local, url: origin.url }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConnectionError);
      expect(err).toMatchObject({ code: 'ECONNRESET', message: 'connection reset' });
      await origin.close();
    });

    it('reports a response that is not HTTP', async () => {
      const origin = await rawOrigin('SSH-2.0-OpenSSH_9.6\r\n');
      await expect(httpRequest({ ...local, url: origin.url })).rejects.toThrow('invalid HTTP response');
      await origin.close();
    });
  });
});
