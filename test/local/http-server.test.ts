import { type AddressInfo, connect } from 'node:net';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_ROUTE_BODY_BYTES } from '../../lib/http/router.ts';
import type { HttpRequest, HttpResponse } from '../../lib/http/types.ts';
import { createHttpServer, targetOf } from '../../lib/local/http-server.ts';
import { PayloadTooLargeError } from '../../lib/platform/errors.ts';
import { createLogger, type Logger, silentLogger } from '../../lib/platform/logger.ts';
import { WAIT } from '../support/wait.ts';
import { type Raw, rawRequest } from './raw-request.ts';

// The local HTTP edge on its own, with a stand-in handler: framing, bodies, limits.

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function serve(
  handle: (req: HttpRequest) => Promise<HttpResponse>,
  logger: Logger = silentLogger,
): Promise<number> {
  const server = createHttpServer(handle, logger);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  close = () => new Promise((resolve) => server.close(() => resolve()));
  return (server.address() as AddressInfo).port;
}

function send(port: number, method: string, body?: Buffer | string): Promise<Raw> {
  return rawRequest({ host: '127.0.0.1', port, method, path: '/x?a=1' }, body);
}

describe('local HTTP server', () => {
  it('answers with a Content-Length (bytes, not characters) instead of chunked framing', async () => {
    const port = await serve(async () => ({
      status: 200,
      headers: { 'content-type': 'text/plain' },
      body: 'größe ✓',
    }));
    const res = await send(port, 'GET');
    expect(res.body).toBe('größe ✓');
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength('größe ✓')));
    expect(res.headers['transfer-encoding']).toBeUndefined();
  });

  it('sends a 204 without a body or a Content-Length', async () => {
    const port = await serve(async () => ({ status: 204, headers: {}, body: '' }));
    const res = await send(port, 'DELETE');
    expect(res.status).toBe(204);
    expect(res.headers['content-length']).toBeUndefined();
    expect(res.body).toBe('');
  });

  it('hands the handler the whole body, method, path and query', async () => {
    let seen: HttpRequest | undefined;
    const port = await serve(async (req) => {
      seen = req;
      return { status: 201, headers: {}, body: '{}' };
    });
    const body = Buffer.alloc(300_000, 7);
    await send(port, 'POST', body);
    expect(seen).toMatchObject({ method: 'POST', path: '/x', query: { a: '1' } });
    expect(seen?.body.equals(body)).toBe(true);
  });

  // The edge's limit is the largest any route takes; each route's own (1 MiB by default) is the router's.
  it('refuses a body over the limit with 413 and closes the connection', async () => {
    let called = false;
    const port = await serve(async () => {
      called = true;
      return { status: 200, headers: {}, body: '' };
    });
    const res = await send(port, 'POST', Buffer.alloc(MAX_ROUTE_BODY_BYTES + 1, 1));
    expect(res.status).toBe(new PayloadTooLargeError(MAX_ROUTE_BODY_BYTES).status);
    expect(res.headers.connection).toBe('close');
    expect(called).toBe(false);
  });

  it('logs a client that disconnects mid-upload as a client abort at debug level, without a stack', async () => {
    const lines: string[] = [];
    let called = false;
    const server = createHttpServer(
      async () => {
        called = true;
        return { status: 200, headers: {}, body: '' };
      },
      createLogger({ level: 'debug', write: (line) => lines.push(line) }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    close = () => new Promise((resolve) => server.close(() => resolve()));
    const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
    const requestSeen = new Promise((resolve) => server.once('request', resolve));
    socket.write('POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n{"part":');
    await requestSeen;
    socket.destroy();
    await vi.waitFor(() => expect(lines.length).toBeGreaterThan(0), WAIT);
    const logged = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(logged).toEqual([
      expect.objectContaining({
        level: 'debug',
        msg: 'client aborted the request',
        method: 'POST',
        path: '/upload',
      }),
    ]);
    expect(lines.join('\n')).not.toContain('stack');
    expect(called).toBe(false);
  });
});

describe('a request target read', () => {
  /** The target as the URL parser reads it: what every request went through before the plain path's shortcut. */
  const parsed = (target: string) => {
    const url = new URL(target, 'http://localhost');
    const query: Record<string, string> = {};
    for (const [name, value] of url.searchParams) if (!(name in query)) query[name] = value;
    return { path: url.pathname, query };
  };
  /** What reading came to: the path and query, or the error's name (a target no URL parses). */
  const outcome = (read: (target: string) => unknown, target: string) => {
    try {
      return read(target);
    } catch (err) {
      return { threw: (err as Error).name };
    }
  };
  const same = (target: string) => expect(outcome(targetOf, target), target).toEqual(outcome(parsed, target));

  it('gives the path and query the URL parser gives, plain paths, dot segments, encodings and odd starts alike', () => {
    for (const target of [
      '/v1/checks/chk_01ABC/results',
      '/v1/checks/',
      '/',
      '//',
      '//evil.example/x',
      '/a/./b',
      '/a/../b',
      '/a/..',
      '/a/.',
      '/.well-known/x',
      '/a/.b/..c',
      '/a%2e%2e/b',
      '/a\\b',
      '/a b',
      '/x?a=1&a=2&b=',
      '/é',
      'v1/checks',
    ])
      same(target);
    const part = fc.constantFrom(
      '/',
      '.',
      '..',
      '%2e',
      '%',
      '?',
      '#',
      '\\',
      ' ',
      'a',
      'Z',
      '9',
      '_',
      '-',
      '~',
      'é',
      '=',
      '&',
    );
    fc.assert(
      fc.property(fc.array(part, { maxLength: 12 }), (parts) => {
        const target = `/${parts.join('')}`;
        same(target);
      }),
      { numRuns: 5000 },
    );
  });
});
