import type { Server } from 'node:http';
import { request } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HttpRequest, HttpResponse } from '../../lib/http/types.ts';
import { createHttpServer } from '../../lib/local/http-server.ts';
import type { HttpLimits } from '../../lib/platform/config.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import { type LocalHarness, startLocalHarness } from '../support/api-harness.ts';

// The local server under a crowd of connections that send nothing, or stop halfway: timeouts
// close them, and a cap closes the longest idle ones so that new clients (and /healthz) get in.

/** How long a test waits for what it expects (a close, an answer) before failing. */
const BOUND_MS = 10_000;

let server: Server | undefined;
const sockets: Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  const s = server;
  server = undefined;
  if (s) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
});

function within<T>(promise: Promise<T>, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what}: not within ${BOUND_MS} ms`)), BOUND_MS);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}

/** Resolves when the server has closed `socket` (read on, since a paused socket never sees the end). */
const closed = (socket: Socket, what = 'the connection closes') =>
  within(
    new Promise<void>((resolve) => {
      if (socket.destroyed) return resolve();
      socket.once('close', () => resolve());
      socket.resume();
    }),
    what,
  );

/** A connection that has sent nothing (yet). */
function dial(port: number): Promise<Socket> {
  return within(
    new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      sockets.push(socket);
      // A closed connection may see a reset: the tests watch 'close', not errors.
      socket.on('error', () => undefined);
      socket.once('connect', () => resolve(socket));
      socket.once('close', () => reject(new Error('closed before it connected')));
    }),
    'connect',
  );
}

/** Writes `text` and resolves with what came back once it contains `until`. */
function exchange(socket: Socket, text: string, until: string): Promise<string> {
  return within(
    new Promise((resolve, reject) => {
      let seen = '';
      const onData = (chunk: Buffer) => {
        seen += chunk.toString();
        if (!seen.includes(until)) return;
        socket.off('data', onData);
        socket.off('close', onClose);
        resolve(seen);
      };
      const onClose = () => reject(new Error(`closed before "${until}" came: ${seen}`));
      socket.on('data', onData);
      socket.once('close', onClose);
      if (text) socket.write(text);
    }),
    `the answer with "${until}"`,
  );
}

const GET = (path: string) => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`;

/** A keep-alive connection left idle after one answered request. */
async function keptAlive(port: number): Promise<Socket> {
  const socket = await dial(port);
  await exchange(socket, GET('/healthz'), '\r\n\r\nok');
  return socket;
}

/** GET on a fresh connection, as a new client would. */
function get(port: number, path: string): Promise<{ status: number; body: string }> {
  return within(
    new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => {
          body += chunk.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    }),
    `GET ${path}`,
  );
}

/** Timeouts long enough never to fire during a test, unless a test shortens one. */
const limits = (overrides: Partial<HttpLimits>): HttpLimits => ({
  headersTimeoutMs: 60_000,
  requestTimeoutMs: 60_000,
  keepAliveTimeoutMs: 60_000,
  maxConnections: 10_000,
  ...overrides,
});

interface Stand {
  port: number;
  /** Sends a chunk on the open /stream response. */
  push(text: string): void;
  /** Resolves once the router has a /slow request in hand. */
  slowStarted: Promise<void>;
  /** Lets the pending /slow request answer. */
  release(): void;
}

/** A server with a stand-in router: /stream streams until the test ends, /slow waits for release(), the rest answers "ok". */
async function serve(configured: HttpLimits): Promise<Stand> {
  let streamController: ReadableStreamDefaultController<Uint8Array> | undefined;
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let started: () => void = () => undefined;
  const slowStarted = new Promise<void>((resolve) => {
    started = resolve;
  });
  const handle = async (req: HttpRequest): Promise<HttpResponse> => {
    if (req.path === '/stream') {
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          streamController = controller;
          controller.enqueue(Buffer.from(': open\n\n'));
        },
      });
      return { status: 200, headers: { 'content-type': 'text/event-stream' }, body: '', stream };
    }
    if (req.path === '/slow') {
      started();
      await released;
    }
    return { status: 200, headers: { 'content-type': 'text/plain' }, body: 'ok' };
  };
  const s = createHttpServer(handle, silentLogger, { limits: configured });
  server = s;
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return {
    port: (s.address() as AddressInfo).port,
    push: (text) => streamController?.enqueue(Buffer.from(text)),
    slowStarted,
    release: () => release(),
  };
}

describe('local HTTP server: connection cap', () => {
  it('closes the longest idle connections to let a new client in: /healthz answers over 300 idle sockets', async () => {
    const { port } = await serve(limits({ maxConnections: 20 }));
    const silent: Socket[] = [];
    for (let i = 0; i < 200; i += 1) silent.push(await dial(port));
    const kept: Socket[] = [];
    for (let i = 0; i < 100; i += 1) kept.push(await keptAlive(port));

    expect(await get(port, '/healthz')).toEqual({ status: 200, body: 'ok' });
    // Silent sockets were idle longest, then the keep-alive ones in the order they went idle.
    await Promise.all(silent.map((socket) => closed(socket)));
    await Promise.all(kept.slice(0, 80).map((socket) => closed(socket)));
    // The most recently idle connection was kept and still serves requests.
    const last = kept.at(-1) as Socket;
    expect(await exchange(last, GET('/healthz'), '\r\n\r\nok')).toMatch(/^HTTP\/1\.1 200/);
  });

  it('never closes an open event stream or a connection with a request in flight', async () => {
    const stand = await serve(limits({ maxConnections: 5 }));
    const stream = await dial(stand.port);
    await exchange(stream, GET('/stream'), ': open');
    const slow = await dial(stand.port);
    const slowAnswer = exchange(slow, GET('/slow'), '\r\n\r\nok');
    await within(stand.slowStarted, 'the slow request starts');
    const silent: Socket[] = [];
    for (let i = 0; i < 100; i += 1) silent.push(await dial(stand.port));

    expect(await get(stand.port, '/healthz')).toEqual({ status: 200, body: 'ok' });
    await Promise.all(silent.slice(0, 90).map((socket) => closed(socket)));
    const event = exchange(stream, '', 'data: still here');
    stand.push('data: still here\n\n');
    await event;
    stand.release();
    expect(await slowAnswer).toMatch(/^HTTP\/1\.1 200/);
  });

  it('closes a newcomer when every connection is busy', async () => {
    const stand = await serve(limits({ maxConnections: 2 }));
    const stream = await dial(stand.port);
    await exchange(stream, GET('/stream'), ': open');
    const slow = await dial(stand.port);
    const slowAnswer = exchange(slow, GET('/slow'), '\r\n\r\nok');
    await within(stand.slowStarted, 'the slow request starts');

    const newcomer = connect(stand.port, '127.0.0.1');
    sockets.push(newcomer);
    newcomer.on('error', () => undefined);
    await closed(newcomer, 'the newcomer is closed');

    stand.release();
    expect(await slowAnswer).toMatch(/^HTTP\/1\.1 200/);
    const event = exchange(stream, '', 'data: after');
    stand.push('data: after\n\n');
    await event;
  });
});

describe('local HTTP server: timeouts', () => {
  it('closes a connection that sends nothing, and one that stops inside its head, after the header timeout', async () => {
    const { port } = await serve(limits({ headersTimeoutMs: 200, requestTimeoutMs: 400 }));
    const silent = await dial(port);
    const partial = await dial(port);
    partial.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');

    await closed(silent, 'the silent connection closes');
    await closed(partial, 'the half-sent head closes');
  });

  it('closes a connection whose body stops short after the request timeout', async () => {
    const { port } = await serve(limits({ headersTimeoutMs: 200, requestTimeoutMs: 400 }));
    const socket = await dial(port);
    socket.write('POST /x HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\nhalf');

    await closed(socket, 'the unfinished body closes');
  });

  it('keeps an event stream open past the request timeout (it bounds receiving the request, not the answer)', async () => {
    const stand = await serve(limits({ headersTimeoutMs: 200, requestTimeoutMs: 400 }));
    const stream = await dial(stand.port);
    await exchange(stream, GET('/stream'), ': open');
    // Opened after the stream, closed by the request timeout: the stream has lived longer than that.
    const late = await dial(stand.port);
    late.write('POST /x HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\nhalf');
    await closed(late, 'the unfinished body closes');

    const event = exchange(stream, '', 'data: still open');
    stand.push('data: still open\n\n');
    await event;
  });

  it('closes an idle keep-alive connection after the keep-alive timeout', async () => {
    const { port } = await serve(limits({ keepAliveTimeoutMs: 200 }));
    const socket = await keptAlive(port);

    await closed(socket, 'the idle keep-alive connection closes');
  });
});

describe('local runtime: VIGIL_HTTP_MAX_CONNECTIONS', () => {
  let api: LocalHarness;
  beforeAll(async () => {
    api = await startLocalHarness({ scheduler: false, env: { VIGIL_HTTP_MAX_CONNECTIONS: '16' } });
  });
  afterAll(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await api.close();
  });

  it('keeps /healthz answering over 200 connections that send nothing', async () => {
    const port = api.local.address.port;
    const silent: Socket[] = [];
    for (let i = 0; i < 200; i += 1) silent.push(await dial(port));

    expect((await get(port, '/healthz')).status).toBe(200);
    await Promise.all(silent.slice(0, 180).map((socket) => closed(socket)));
  });
});
