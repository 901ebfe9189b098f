import { getEventListeners, once } from 'node:events';
import { createServer, type LookupFunction, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer, type TLSSocket, type Server as TlsServer } from 'node:tls';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Http1Request } from '../../lib/egress/http1-client.ts';
import { closedPort, portOf } from '../probes/support/http-server.ts';
import { createTlsFixtures, type KeyPair, type TlsFixtures } from '../support/tls-fixtures.ts';
import { WAIT } from '../support/wait.ts';

/**
 * node:net and node:tls pass through, but each connect is recorded (options and writes) so the
 * tests can check how the client connects, and a port listed in `spy.ports` is redirected: that
 * is how requests to the default ports 80 and 443 reach a test server.
 */
const spy = vi.hoisted(() => {
  type Connect = (options: Record<string, unknown>) => import('node:net').Socket;
  const calls: { kind: string; options: Record<string, unknown>; writes: unknown[] }[] = [];
  const ports = new Map<number, number>();
  const wrap =
    (kind: string, connect: Connect): Connect =>
    (options) => {
      const call = { kind, options, writes: [] as unknown[] };
      calls.push(call);
      const port =
        typeof options.port === 'number' ? (ports.get(options.port) ?? options.port) : options.port;
      const socket = connect({ ...options, port });
      const write = socket.write.bind(socket) as (chunk: unknown) => boolean;
      socket.write = ((chunk: unknown) => {
        call.writes.push(chunk);
        return write(chunk);
      }) as typeof socket.write;
      return socket;
    };
  return { calls, ports, wrap };
});

vi.mock('node:net', async (importOriginal) => {
  const net = await importOriginal<typeof import('node:net')>();
  return { ...net, connect: spy.wrap('net', net.connect as unknown as Parameters<typeof spy.wrap>[1]) };
});

vi.mock('node:tls', async (importOriginal) => {
  const tls = await importOriginal<typeof import('node:tls')>();
  return { ...tls, connect: spy.wrap('tls', tls.connect as unknown as Parameters<typeof spy.wrap>[1]) };
});

// The unit tier shares one module graph per worker (vitest.config.ts), where another file may have
// loaded the client already, bound to the real node:net: it is loaded afresh, over the mocks above.
vi.resetModules();
const { ConnectionError, EgressDeniedError } = await import('../../lib/egress/egress-errors.ts');
const { createGuardedLookup } = await import('../../lib/egress/egress-guard.ts');
const { http1Request } = await import('../../lib/egress/http1-client.ts');

/** A TCP (or TLS) server that answers each request with whatever the test writes, byte for byte. */
interface RawServer {
  port: number;
  /** Each request as received (head and Content-Length body), latin1. */
  requests: string[];
  connections(): number;
  /** Resolves once no accepted connection is open: the client closed what it opened. */
  allClosed(): Promise<void>;
}

type Respond = (socket: Socket, request: string) => void;
const servers: (Server | TlsServer)[] = [];

function serve(socket: Socket, respond: Respond, requests: string[]): void {
  socket.on('error', () => {});
  let text = '';
  let answered = false;
  socket.on('data', (chunk: Buffer) => {
    text += chunk.toString('latin1');
    const end = text.indexOf('\r\n\r\n');
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(text)?.[1] ?? 0);
    if (answered || end === -1 || text.length < end + 4 + length) return;
    answered = true;
    requests.push(text);
    respond(socket, text);
  });
}

async function listen(server: Server | TlsServer, host: string, requests: string[]): Promise<RawServer> {
  servers.push(server);
  const open = new Set<Socket>();
  let connections = 0;
  let waiters: (() => void)[] = [];
  const track = (socket: Socket) => {
    connections += 1;
    open.add(socket);
    socket.on('close', () => {
      open.delete(socket);
      if (open.size > 0) return;
      for (const wake of waiters) wake();
      waiters = [];
    });
  };
  server.on('connection', track);
  server.listen(0, host);
  await once(server, 'listening');
  return {
    port: portOf(server),
    requests,
    connections: () => connections,
    allClosed: () => (open.size === 0 ? Promise.resolve() : new Promise((wake) => waiters.push(wake))),
  };
}

function rawServer(respond: Respond, host = '127.0.0.1'): Promise<RawServer> {
  const requests: string[] = [];
  return listen(
    createServer((socket) => serve(socket, respond, requests)),
    host,
    requests,
  );
}

/** Writes `raw` and closes. */
const reply =
  (raw: string): Respond =>
  (socket) =>
    socket.end(Buffer.from(raw, 'latin1'));
/** Writes `raw` and keeps the connection open: only the client can end it. */
const replyOpen =
  (raw: string): Respond =>
  (socket) =>
    socket.write(Buffer.from(raw, 'latin1'));
const never: Respond = () => {};

const request = (port: number, extra: Partial<Http1Request> = {}) =>
  http1Request({
    url: new URL(`http://127.0.0.1:${port}/`),
    method: 'GET',
    headers: {},
    maxBodyBytes: 1024,
    // A broken client must fail here rather than hang until the test times out.
    signal: AbortSignal.timeout(3000),
    ...extra,
  });

/** Answers `raw` (then closes) to one request and returns the outcome, or the error. */
async function answer(raw: string | Respond, extra: Partial<Http1Request> = {}) {
  const server = await rawServer(typeof raw === 'string' ? reply(raw) : raw);
  return request(server.port, extra).catch((err: unknown) => err);
}

const invalidResponse = { name: 'ConnectionError', message: 'invalid HTTP response' };
const OK = 'HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok';

afterAll(async () => {
  await Promise.all(
    servers.map((server) => {
      server.close();
      return once(server, 'close');
    }),
  );
});

beforeEach(() => {
  spy.calls.length = 0;
  spy.ports.clear();
});

describe('http1Request connects', () => {
  it('with net.connect to an IP literal, without lookup, and one write for head and body', async () => {
    const server = await rawServer(reply(OK));
    const lookup = vi.fn<LookupFunction>();
    const res = await request(server.port, { method: 'POST', body: 'hello', lookup });
    expect(res).toMatchObject({ status: 200 });
    expect(lookup).not.toHaveBeenCalled();
    expect(spy.calls).toHaveLength(1);
    expect(spy.calls[0]?.kind).toBe('net');
    expect(spy.calls[0]?.options).toMatchObject({ host: '127.0.0.1', port: server.port, lookup });
    expect(spy.calls[0]?.writes).toHaveLength(1);
    expect(String(spy.calls[0]?.writes[0])).toBe(server.requests[0]);
  });

  it('resolves a host name through the given lookup', async () => {
    const server = await rawServer(reply(OK));
    const names: string[] = [];
    const lookup: LookupFunction = (hostname, options, callback) => {
      names.push(hostname);
      if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
      else callback(null, '127.0.0.1', 4);
    };
    const res = await request(server.port, { url: new URL(`http://svc.test:${server.port}/`), lookup });
    expect(res.status).toBe(200);
    expect(names).toEqual(['svc.test']);
    expect(server.requests[0]).toContain(`\r\nHost: svc.test:${server.port}\r\n`);
  });

  it('is refused by the SSRF guard lookup before any connection is made', async () => {
    const server = await rawServer(reply(OK));
    const resolve = async () => [{ address: '127.0.0.1', family: 4 as const }];
    const lookup = createGuardedLookup({ allowPrivate: false, resolve });
    const err = await request(server.port, { url: new URL(`http://svc.test:${server.port}/`), lookup }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(EgressDeniedError);
    expect(err).toMatchObject({ message: 'destination 127.0.0.1 is a loopback address' });
    expect(server.connections()).toBe(0);
  });

  it('to an IPv6 literal, with the Host header in brackets', async (ctx) => {
    const server = await rawServer(reply(OK), '::1').catch(() => undefined);
    if (!server) return ctx.skip();
    const res = await request(server.port, { url: new URL(`http://[::1]:${server.port}/`) });
    expect(res.status).toBe(200);
    expect(spy.calls[0]?.options).toMatchObject({ host: '::1' });
    expect(server.requests[0]).toContain(`\r\nHost: [::1]:${server.port}\r\n`);
  });

  it('to port 80 by default, leaving the port out of Host', async () => {
    const server = await rawServer(reply(OK));
    spy.ports.set(80, server.port);
    const res = await request(server.port, { url: new URL('http://127.0.0.1/x') });
    expect(res.status).toBe(200);
    expect(spy.calls[0]?.options).toMatchObject({ port: 80 });
    expect(server.requests[0]).toContain('\r\nHost: 127.0.0.1\r\n');
  });

  it('reports a refused connection in the egress words', async () => {
    const err = await request(await closedPort()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err).toMatchObject({ code: 'ECONNREFUSED', message: 'connection refused' });
  });
});

describe('http1Request sends', () => {
  it('the request line, the caller headers, Host and Connection: close, and nothing else', async () => {
    const server = await rawServer(reply(OK));
    await request(server.port, {
      url: new URL(`http://127.0.0.1:${server.port}/a%20b/c?q=1&r=%C3%A9#frag`),
      headers: { 'user-agent': 'vigil', 'X-Probe': 'yes' },
    });
    expect(server.requests[0]).toBe(
      `GET /a%20b/c?q=1&r=%C3%A9 HTTP/1.1\r\nuser-agent: vigil\r\nX-Probe: yes\r\n` +
        `Host: 127.0.0.1:${server.port}\r\nConnection: close\r\n\r\n`,
    );
  });

  it('a body with its Content-Length in bytes', async () => {
    const server = await rawServer(reply(OK));
    await request(server.port, { method: 'PUT', body: 'héllo' });
    expect(Buffer.from(server.requests[0] ?? '', 'latin1').toString('utf8')).toMatch(
      /^PUT \/ HTTP\/1\.1\r\n.*\r\nContent-Length: 6\r\n\r\nhéllo$/s,
    );
    await request(server.port, { method: 'POST', body: Buffer.from([0, 1, 2]) });
    expect(server.requests[1]?.endsWith('\r\nContent-Length: 3\r\n\r\n\x00\x01\x02')).toBe(true);
  });

  it('Content-Length: 0 for a POST without body (as node:http did), none for a GET', async () => {
    const server = await rawServer(reply(OK));
    await request(server.port, { method: 'POST' });
    await request(server.port, { method: 'GET' });
    expect(server.requests[0]).toContain('\r\nContent-Length: 0\r\n');
    expect(server.requests[1]).not.toMatch(/content-length/i);
  });

  it('its own framing only: a caller Content-Length or Transfer-Encoding cannot split the request', async () => {
    const server = await rawServer(reply(OK));
    const smuggled = 'GET /admin HTTP/1.1\r\nHost: x\r\n\r\n';
    await request(server.port, {
      method: 'POST',
      headers: { 'Content-Length': '0', 'transfer-encoding': 'chunked' },
      body: smuggled,
    });
    const sent = server.requests[0] ?? '';
    expect(sent.match(/content-length/gi)).toHaveLength(1);
    expect(sent).toContain(`\r\nContent-Length: ${smuggled.length}\r\n`);
    expect(sent).not.toMatch(/transfer-encoding/i);
  });

  it('basic auth from the URL userinfo, unless the caller set Authorization', async () => {
    const server = await rawServer(reply(OK));
    await request(server.port, { url: new URL(`http://u%20s:p%40w@127.0.0.1:${server.port}/`) });
    expect(server.requests[0]).toContain(`\r\nAuthorization: Basic ${btoa('u s:p@w')}\r\n`);
    await request(server.port, {
      url: new URL(`http://u:p@127.0.0.1:${server.port}/`),
      headers: { authorization: 'Bearer t' },
    });
    expect(server.requests[1]).toContain('\r\nauthorization: Bearer t\r\n');
    expect(server.requests[1]?.match(/authorization/gi)).toHaveLength(1);
  });

  it("the caller's Host and Connection instead of its own, and one header per name", async () => {
    const server = await rawServer(reply(OK));
    await request(server.port, {
      headers: { Host: 'vhost.test', connection: 'keep-alive', 'X-A': '1', 'x-a': '2' },
    });
    const sent = server.requests[0] ?? '';
    expect(sent).toContain('\r\nHost: vhost.test\r\n');
    expect(sent).toContain('\r\nconnection: keep-alive\r\n');
    expect(sent.match(/host:|connection:|x-a:/gi)).toHaveLength(3);
    expect(sent).toContain('\r\nx-a: 2\r\n');
  });

  it.each([
    ['a header name that is not a token', { headers: { 'x a': '1' } }, 'ERR_INVALID_HTTP_TOKEN'],
    ['a header name with a colon', { headers: { 'x:a': '1' } }, 'ERR_INVALID_HTTP_TOKEN'],
    ['a CR LF in a header value', { headers: { 'x-a': 'v\r\nX-Injected: 1' } }, 'ERR_INVALID_CHAR'],
    ['a bare LF in a header value', { headers: { 'x-a': 'v\nGET / HTTP/1.1' } }, 'ERR_INVALID_CHAR'],
    ['a NUL in a header value', { headers: { 'x-a': 'v\0' } }, 'ERR_INVALID_CHAR'],
    ['a method that is not a token', { method: 'GET / HTTP/1.1\r\nX:' }, 'ERR_INVALID_HTTP_TOKEN'],
    ['a method with a space', { method: 'G T' }, 'ERR_INVALID_HTTP_TOKEN'],
  ])('nothing, refusing %s', async (_, extra, code) => {
    const server = await rawServer(reply(OK));
    const err = await request(server.port, extra).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TypeError);
    expect(err).toMatchObject({ code });
    expect(spy.calls).toHaveLength(0);
    expect(server.connections()).toBe(0);
  });
});

describe('http1Request reads the head', () => {
  it('of HTTP/1.1 and HTTP/1.0 responses, any three-digit status, with or without a reason', async () => {
    expect(await answer('HTTP/1.1 503 Service Unavailable\r\ncontent-length: 0\r\n\r\n')).toMatchObject({
      status: 503,
    });
    expect(await answer('HTTP/1.0 200 OK\r\n\r\nbody')).toMatchObject({ status: 200 });
    expect(await answer('HTTP/1.1 299\r\ncontent-length: 0\r\n\r\n')).toMatchObject({ status: 299 });
  });

  it.each([
    ['garbage', 'FOO BAR\r\n\r\n'],
    ['a lower-case protocol', 'http/1.1 200 OK\r\n\r\n'],
    ['another HTTP version', 'HTTP/2.0 200 OK\r\n\r\n'],
    ['a two-digit status', 'HTTP/1.1 20 OK\r\n\r\n'],
    ['a four-digit status', 'HTTP/1.1 2000 OK\r\n\r\n'],
    ['two spaces before the status', 'HTTP/1.1  200 OK\r\n\r\n'],
    ['bare LF line ends', 'HTTP/1.1 200 OK\ncontent-length: 0\n\n'],
    ['a bare CR in the status line', 'HTTP/1.1 200 O\rK\r\n\r\n'],
    ['a header line without colon', 'HTTP/1.1 200 OK\r\nbroken\r\n\r\n'],
    ['a space before the colon', 'HTTP/1.1 200 OK\r\nx-a : b\r\n\r\n'],
    ['a header name that is not a token', 'HTTP/1.1 200 OK\r\nx(a): b\r\n\r\n'],
    ['an empty header name', 'HTTP/1.1 200 OK\r\n: b\r\n\r\n'],
    ['a folded header line', 'HTTP/1.1 200 OK\r\nx-a: b\r\n  c\r\n\r\n'],
    ['a control character in a value', 'HTTP/1.1 200 OK\r\nx-a: b\x01c\r\n\r\n'],
    ['a NUL in a value', 'HTTP/1.1 200 OK\r\nx-a: b\x00c\r\n\r\n'],
    ['a bare CR in a value', 'HTTP/1.1 200 OK\r\nx-a: b\rc\r\n\r\n'],
    ['a bare LF ending the head', 'HTTP/1.1 200 OK\r\nx-a: b\r\n\ncontent-length: 0\r\n\r\n'],
  ])('and refuses %s as an invalid HTTP response', async (_, raw) => {
    expect(await answer(raw)).toMatchObject(invalidResponse);
  });

  it('and fails at once on a server that speaks another protocol and stays silent', async () => {
    // A 60 s deadline, so "at once" (the parser's refusal) and "at the deadline" stay apart by far
    // more than a busy machine's slowness: the bound below is half of it.
    const started = performance.now();
    const err = await answer(replyOpen('SSH-2.0-OpenSSH_9.6'), { signal: AbortSignal.timeout(60_000) });
    expect(err).toMatchObject({ ...invalidResponse, code: 'HPE_INVALID_CONSTANT' });
    expect(performance.now() - started).toBeLessThan(30_000);
  });

  it('into lower-case names, combining repeats as node:http does', async () => {
    const res = await answer(
      'HTTP/1.1 200 OK\r\nSet-Cookie: a=1\r\nset-cookie: b=2\r\nX-Multi: 1\r\nx-multi: 2\r\n' +
        'Location: /first\r\nlocation: /second\r\nContent-Type: text/a\r\ncontent-type: text/b\r\n' +
        'Cookie: c=1\r\ncookie: d=2\r\nX-Space: \t a\tb \t\r\nX-Empty:\r\nX-Latin: caf\xe9\r\nX-Nbsp: \xa0a\xa0\r\n' +
        'content-length: 0\r\n\r\n',
    );
    expect(res).toMatchObject({
      status: 200,
      headers: {
        'set-cookie': ['a=1', 'b=2'],
        'x-multi': '1, 2',
        location: '/first',
        'content-type': 'text/a',
        cookie: 'c=1; d=2',
        'x-space': 'a\tb',
        'x-empty': '',
        'x-latin': 'café',
        'x-nbsp': '\xa0a\xa0',
        'content-length': '0',
      },
    });
  });

  it('as plain fields even when named like Object.prototype members', async () => {
    const server = await rawServer(
      reply('HTTP/1.1 200 OK\r\n__proto__: x\r\nconstructor: y\r\ntoString: z\r\ncontent-length: 0\r\n\r\n'),
    );
    const res = await request(server.port);
    expect(Object.getOwnPropertyNames(res.headers).sort()).toEqual([
      '__proto__',
      'constructor',
      'content-length',
      'tostring',
    ]);
    expect(Object.getOwnPropertyDescriptor(res.headers, '__proto__')?.value).toBe('x');
    expect(res.headers.constructor).toBe('y');
  });

  it('of up to 16 KiB, and refuses a longer one', async () => {
    const head = (size: number) => {
      const frame = 'HTTP/1.1 200 OK\r\nx-pad: \r\ncontent-length: 0\r\n\r\n';
      return `HTTP/1.1 200 OK\r\nx-pad: ${'p'.repeat(size - frame.length)}\r\ncontent-length: 0\r\n\r\n`;
    };
    expect(head(16384)).toHaveLength(16384);
    expect(await answer(head(16384))).toMatchObject({ status: 200 });
    expect(await answer(head(16385))).toMatchObject({
      code: 'HPE_HEADER_OVERFLOW',
      message: 'Parse Error: Header overflow',
    });
  });

  it('and stops an endless head at 16 KiB without waiting for the server', async () => {
    let timer: NodeJS.Timeout | undefined;
    const endless: Respond = (socket) => {
      socket.write('HTTP/1.1 200 OK\r\nx-a: ');
      timer = setInterval(() => socket.write('a'.repeat(1000)), 1);
      socket.on('close', () => clearInterval(timer));
    };
    const server = await rawServer(endless);
    await expect(request(server.port)).rejects.toMatchObject({ code: 'HPE_HEADER_OVERFLOW' });
    await server.allClosed();
  });

  it('skipping interim 1xx responses, their headers included', async () => {
    const res = await answer(
      'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 102 Processing\r\nx-interim: 1\r\n\r\n' +
        'HTTP/1.1 103 Early Hints\r\nlink: </a.css>\r\n\r\nHTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok',
    );
    expect(res).toMatchObject({ status: 200, headers: { 'content-length': '2' } });
    expect(res).not.toHaveProperty('headers.link');
    expect(res).not.toHaveProperty('headers.x-interim');
    expect((res as { bodyPrefix: Buffer }).bodyPrefix.toString()).toBe('ok');
  });

  it('read byte by byte', async () => {
    const raw = 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nx-a: b\r\ncontent-length: 5\r\n\r\nhello';
    const dribble: Respond = (socket) => {
      let i = 0;
      const timer = setInterval(() => {
        if (i < raw.length) socket.write(raw[i++] ?? '');
        else clearInterval(timer);
      }, 0);
      socket.on('close', () => clearInterval(timer));
    };
    const res = await answer(dribble);
    expect(res).toMatchObject({ status: 200, headers: { 'x-a': 'b' } });
    expect((res as { bodyPrefix: Buffer }).bodyPrefix.toString()).toBe('hello');
  });
});

describe('http1Request reads the body', () => {
  const body = async (raw: string | Respond, extra: Partial<Http1Request> = {}) => {
    const res = await answer(raw, extra);
    if (res instanceof Error) throw res;
    return (res as { bodyPrefix: Buffer }).bodyPrefix.toString('latin1');
  };

  it('of Content-Length bytes without waiting for the close, ignoring anything after', async () => {
    const server = await rawServer(replyOpen('HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nhelloEXTRA'));
    const res = await request(server.port);
    expect(res.bodyPrefix.toString()).toBe('hello');
    await server.allClosed();
  });

  it('chunked, ignoring extensions and trailers, in any case of the coding', async () => {
    const chunked = (te: string) =>
      `HTTP/1.1 200 OK\r\nTransfer-Encoding: ${te}\r\n\r\n` +
      '3;name=value\r\nabc\r\n000A\r\n0123456789\r\n0\r\nx-trailer: 1\r\n\r\n';
    expect(await body(chunked('chunked'))).toBe('abc0123456789');
    expect(await body(chunked('gzip, Chunked'))).toBe('abc0123456789');
    const server = await rawServer(replyOpen(chunked('chunked')));
    expect((await request(server.port)).bodyPrefix.toString()).toBe('abc0123456789');
    await server.allClosed();
  });

  it('until the close when there is no length, or a coding other than chunked last', async () => {
    expect(await body('HTTP/1.1 200 OK\r\n\r\nto the end')).toBe('to the end');
    expect(await body('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked, gzip\r\n\r\n3\r\nabc')).toBe(
      '3\r\nabc',
    );
  });

  it.each([
    ['a HEAD request', 'HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\n', { method: 'HEAD' }],
    ['a 204', 'HTTP/1.1 204 No Content\r\ncontent-length: 5\r\n\r\nhello', {}],
    ['a 304', 'HTTP/1.1 304 Not Modified\r\n\r\nhello', {}],
    ['a 101', 'HTTP/1.1 101 Switching Protocols\r\nupgrade: x\r\n\r\nother protocol', {}],
  ])('of nothing for %s, without waiting for the close', async (_, raw, extra) => {
    const server = await rawServer(replyOpen(raw));
    const res = await request(server.port, extra);
    expect(res.bodyPrefix.length).toBe(0);
    await server.allClosed();
  });

  it('up to maxBodyBytes, then closes, whatever the framing', async () => {
    const limit = { maxBodyBytes: 4 };
    expect(await body('HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\n0123456789', limit)).toBe('0123');
    expect(
      await body(
        'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\r\n01\r\n5\r\n23456\r\n0\r\n\r\n',
        limit,
      ),
    ).toBe('0123');
    expect(await body('HTTP/1.1 200 OK\r\n\r\n0123456789', limit)).toBe('0123');
  });

  it('of nothing with maxBodyBytes 0, or 0 for the status, closing right after the head', async () => {
    const server = await rawServer(replyOpen('HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\n'));
    expect((await request(server.port, { maxBodyBytes: 0 })).bodyPrefix.length).toBe(0);
    const statuses: number[] = [];
    const perStatus = (status: number) => {
      statuses.push(status);
      return status === 200 ? 0 : 100;
    };
    expect((await request(server.port, { maxBodyBytes: perStatus })).bodyPrefix.length).toBe(0);
    expect(statuses).toEqual([200]);
    await server.allClosed();
    expect(await body('HTTP/1.1 404 No\r\ncontent-length: 3\r\n\r\nnop', { maxBodyBytes: perStatus })).toBe(
      'nop',
    );
  });

  it('of an endless body only the prefix, then closes', async () => {
    let timer: NodeJS.Timeout | undefined;
    const endless: Respond = (socket) => {
      socket.write('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n');
      timer = setInterval(() => socket.write(`3e8\r\n${'z'.repeat(1000)}\r\n`), 1);
      socket.on('close', () => clearInterval(timer));
    };
    const server = await rawServer(endless);
    const res = await request(server.port, { maxBodyBytes: 2500 });
    expect(res.bodyPrefix.toString()).toBe('z'.repeat(2500));
    await server.allClosed();
  });

  it('and keeps a prefix already complete when the rest is cut short', async () => {
    const raw = 'HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nabc';
    expect(await body(raw, { maxBodyBytes: 3 })).toBe('abc');
  });

  it.each([
    ['a Content-Length body', 'HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nabc'],
    ['a chunk', 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5\r\nab'],
    [
      'a chunked body before its last chunk',
      'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n3\r\nabc\r\n',
    ],
    ['a chunked body before its trailer end', 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n0\r\n'],
  ])('and reports %s cut short as a reset connection, as node:http did', async (_, raw) => {
    expect(await answer(raw)).toMatchObject({
      name: 'ConnectionError',
      code: 'ECONNRESET',
      message: 'connection reset',
      cause: { message: 'aborted' },
    });
  });

  it.each([
    ['HPE_INVALID_CONTENT_LENGTH', 'HTTP/1.1 200 OK\r\ncontent-length: 5x\r\n\r\nhello'],
    ['HPE_INVALID_CONTENT_LENGTH', 'HTTP/1.1 200 OK\r\ncontent-length: -1\r\n\r\nhello'],
    [
      'HPE_UNEXPECTED_CONTENT_LENGTH',
      'HTTP/1.1 200 OK\r\ncontent-length: 5\r\ncontent-length: 5\r\n\r\nhello',
    ],
    [
      'HPE_INVALID_TRANSFER_ENCODING',
      'HTTP/1.1 200 OK\r\ncontent-length: 3\r\ntransfer-encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n',
    ],
    ['HPE_INVALID_CHUNK_SIZE', 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n'],
    ['HPE_INVALID_CHUNK_SIZE', 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n3\nabc\r\n0\r\n\r\n'],
    ['HPE_INVALID_CHUNK_SIZE', 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n3 \r\nabc\r\n0\r\n\r\n'],
    ['HPE_STRICT', 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n3\r\nabcX\r\n0\r\n\r\n'],
    [
      'HPE_CHUNK_EXTENSIONS_OVERFLOW',
      `HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n3;${'e'.repeat(20000)}\r\nabc\r\n0\r\n\r\n`,
    ],
    [
      'HPE_HEADER_OVERFLOW',
      `HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n0\r\nx: ${'t'.repeat(20000)}\r\n\r\n`,
    ],
  ])('and refuses broken framing with llhttp code %s', async (code, raw) => {
    const err = await answer(raw);
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err).toMatchObject({ code, message: expect.stringMatching(/^Parse Error: /) });
  });
});

describe('http1Request fails', () => {
  it.each([
    ['no bytes', ''],
    ['part of a status line', 'HTTP/1.1 20'],
    ['part of a head', 'HTTP/1.1 200 OK\r\nx-a: b\r\n'],
    ['only an interim response', 'HTTP/1.1 100 Continue\r\n\r\n'],
  ])('with a reset connection when the server closes after %s', async (_, raw) => {
    expect(await answer(raw)).toMatchObject({
      name: 'ConnectionError',
      code: 'ECONNRESET',
      message: 'connection reset',
      cause: { message: 'socket hang up' },
    });
  });

  it('with the reason of an abort, closing the connection and dropping its listener', async () => {
    const server = await rawServer(never);
    const controller = new AbortController();
    const pending = request(server.port, { signal: controller.signal });
    await vi.waitFor(() => expect(server.requests).toHaveLength(1), WAIT);
    const reason = new Error('deadline');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    await server.allClosed();
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('without connecting when the signal is already aborted', async () => {
    const server = await rawServer(reply(OK));
    const reason = new Error('gone');
    await expect(request(server.port, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    expect(spy.calls).toHaveLength(0);
  });

  it('never leaving an abort listener or an open connection behind', async () => {
    const signal = new AbortController().signal;
    const server = await rawServer(replyOpen(OK));
    await request(server.port, { signal });
    const broken = await rawServer(replyOpen('HTTP/1.1 200 OK\r\nbroken\r\n\r\n'));
    await expect(request(broken.port, { signal })).rejects.toMatchObject(invalidResponse);
    await expect(request(await closedPort(), { signal })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
    await server.allClosed();
    await broken.allClosed();
  });
});

describe('http1Request over TLS', () => {
  let fixtures: TlsFixtures;
  const seen: { servername: string | false | null; alpn: string | false | null }[] = [];

  const tlsServer = async (pair: KeyPair): Promise<RawServer> => {
    const requests: string[] = [];
    const server = createTlsServer({ ...pair, ALPNProtocols: ['h2', 'http/1.1'] }, (socket: TLSSocket) => {
      seen.push({ servername: socket.servername, alpn: socket.alpnProtocol });
      serve(socket, reply(OK), requests);
    });
    server.on('tlsClientError', () => {});
    return listen(server, '127.0.0.1', requests);
  };
  const localhost = (port: number | string) => new URL(`https://localhost${port === '' ? '' : `:${port}`}/`);
  const toLoopback: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
    else callback(null, '127.0.0.1', 4);
  };

  beforeAll(() => {
    fixtures = createTlsFixtures();
  });

  beforeEach(() => {
    seen.length = 0;
  });

  it('connects with tls.connect, SNI for the name, the CA and ALPN http/1.1', async () => {
    const server = await tlsServer(fixtures.valid);
    const ca = [fixtures.caCert];
    const res = await request(server.port, { url: localhost(server.port), lookup: toLoopback, ca });
    expect(res.status).toBe(200);
    expect(spy.calls[0]).toMatchObject({
      kind: 'tls',
      options: {
        host: 'localhost',
        port: server.port,
        servername: 'localhost',
        lookup: toLoopback,
        ca,
        ALPNProtocols: ['http/1.1'],
      },
    });
    expect(seen).toEqual([{ servername: 'localhost', alpn: 'http/1.1' }]);
    expect(server.requests[0]).toContain(`\r\nHost: localhost:${server.port}\r\n`);
  });

  it('sends no SNI to an IP literal and checks the certificate against the IP', async () => {
    const server = await tlsServer(fixtures.valid);
    const url = new URL(`https://127.0.0.1:${server.port}/`);
    expect((await request(server.port, { url, ca: [fixtures.caCert] })).status).toBe(200);
    expect(spy.calls[0]?.options.servername).toBeUndefined();
    expect(seen[0]?.servername).toBe(false);
  });

  it("takes SNI from the caller's Host header, as node:https did", async () => {
    const server = await tlsServer(fixtures.valid);
    const url = new URL(`https://127.0.0.1:${server.port}/`);
    await request(server.port, { url, ca: [fixtures.caCert], headers: { host: 'localhost' } });
    expect(seen[0]?.servername).toBe('localhost');
  });

  it('connects to port 443 by default', async () => {
    const server = await tlsServer(fixtures.valid);
    spy.ports.set(443, server.port);
    const res = await request(server.port, { url: localhost(''), lookup: toLoopback, ca: [fixtures.caCert] });
    expect(res.status).toBe(200);
    expect(spy.calls[0]?.options).toMatchObject({ port: 443 });
    expect(server.requests[0]).toContain('\r\nHost: localhost\r\n');
  });

  it('reports an untrusted chain and a wrong host name in the egress words', async () => {
    const valid = await tlsServer(fixtures.valid);
    const untrusted = await request(valid.port, { url: localhost(valid.port), lookup: toLoopback }).catch(
      (e: unknown) => e,
    );
    expect(untrusted).toMatchObject({
      name: 'ConnectionError',
      message: 'certificate issued by an unknown CA',
    });
    const self = await tlsServer(fixtures.selfSigned);
    await expect(request(self.port, { url: localhost(self.port), lookup: toLoopback })).rejects.toMatchObject(
      {
        message: 'self-signed certificate',
      },
    );
    const wrong = await tlsServer(fixtures.wrongHost);
    await expect(
      request(wrong.port, { url: localhost(wrong.port), lookup: toLoopback, ca: [fixtures.caCert] }),
    ).rejects.toMatchObject({
      name: 'ConnectionError',
      message: 'hostname mismatch: certificate is for wrong.example',
    });
  });
});
