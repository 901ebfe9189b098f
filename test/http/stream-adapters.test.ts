import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createStatusStreamHandler } from '../../functions/status-stream.ts';
import { createPowertoolsLogger, fromPowertools } from '../../lib/cloud/edge/lambda-edge.ts';
import { createRouter } from '../../lib/http/router.ts';
import { webRequest } from '../../lib/http/routing/stream-web.ts';
import type { HttpResponse, Route } from '../../lib/http/types.ts';
import { apiGatewayHandler } from '../../lib/lambda-http/lambda-adapter.ts';
import { streamifyHandler } from '../../lib/lambda-http/stream-lambda.ts';
import { createHttpServer } from '../../lib/local/http-server.ts';
import { createLogger, type Logger, silentLogger } from '../../lib/platform/logger.ts';
import { lambdaContext } from '../cloud/support.ts';
import { fakeStreamingRuntime, functionUrlEvent, readStreamedResponse } from '../status/stream-drivers.ts';

// functions/status-stream.ts builds its module-scope handler from the Lambda runtime's global.
vi.hoisted(() => {
  Object.assign(globalThis, {
    awslambda: {
      streamifyResponse: (handler: unknown) => handler,
      HttpResponseStream: { from: (stream: unknown) => stream },
    },
  });
});

// The transports on their own: how each writes a streamed response, and how each answers an error
// nobody handled.

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/** A stream the test writes to by hand, recording when the reader cancels it. */
function manualStream() {
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  const state = { cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    start: (c) => {
      controller = c;
    },
    cancel: () => {
      state.cancelled = true;
    },
  });
  return {
    stream,
    state,
    write: (text: string) => controller?.enqueue(new TextEncoder().encode(text)),
    end: () => controller?.close(),
  };
}

async function serve(response: () => HttpResponse, signal?: AbortSignal): Promise<number> {
  const server = createHttpServer(async () => response(), silentLogger, signal ? { signal } : {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return (server.address() as AddressInfo).port;
}

/** Opens GET / and hands back the response as soon as its head arrives, plus its body as it comes. */
function get(port: number) {
  return new Promise<{
    headers: Record<string, unknown>;
    chunks: string[];
    ended: Promise<void>;
    destroy(): void;
  }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/', agent: false }, (res) => {
      const chunks: string[] = [];
      res.on('data', (c: Buffer) => chunks.push(c.toString()));
      const ended = new Promise<void>((done) => res.on('close', () => done()));
      resolve({ headers: res.headers, chunks, ended, destroy: () => req.destroy() });
    });
    req.on('error', reject);
    req.end();
  });
}

/** Waits (at most 10 s: the machine may be busy) until `ready` holds. */
/** A router of one keyless route: it never authenticates nor admits by key, and admits every address. */
const keylessRouter = (route: Route, logger: Logger) =>
  createRouter({
    routes: [route],
    authenticate: async () => {
      throw new Error('not used');
    },
    rateLimit: {
      admitAddress: async () => ({}),
      admit: async () => {
        throw new Error('not used');
      },
    },
    logger,
  });

const until = async (ready: () => boolean, ms = 10_000) => {
  const deadline = Date.now() + ms;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error('condition not met');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('local HTTP server with a streamed response', () => {
  it('sends the head at once and each chunk as it comes, chunked, without a Content-Length', async () => {
    const body = manualStream();
    const port = await serve(() => ({
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
      body: '',
      stream: body.stream,
    }));
    const res = await get(port);
    expect(res.headers['content-type']).toBe('text/event-stream');
    expect(res.headers['content-length']).toBeUndefined();
    expect(res.headers['transfer-encoding']).toBe('chunked');
    body.write('one\n');
    await until(() => res.chunks.join('') === 'one\n');
    body.write('two\n');
    body.end();
    await res.ended;
    expect(res.chunks.join('')).toBe('one\ntwo\n');
  });

  it('cancels the stream when the client goes away', async () => {
    const body = manualStream();
    const port = await serve(() => ({ status: 200, headers: {}, body: '', stream: body.stream }));
    const res = await get(port);
    res.destroy();
    await until(() => body.state.cancelled);
  });

  it('cancels the stream of a client that left before the response was ready', async () => {
    // A page load cancels the stream request of the page it leaves, often while the route is
    // still taking its stream slot: the socket is gone before the stream exists.
    const body = manualStream();
    let ready: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      ready = resolve;
    });
    let asked = false;
    const server = createHttpServer(async () => {
      asked = true;
      await gate;
      return { status: 200, headers: {}, body: '', stream: body.stream };
    }, silentLogger);
    const sockets = new Set<import('node:net').Socket>();
    server.on('connection', (socket) => {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    close = () => new Promise((resolve) => server.close(() => resolve()));
    const req = request({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, agent: false });
    req.on('error', () => undefined);
    req.end();
    await until(() => asked);
    req.destroy();
    await until(() => sockets.size === 0);
    ready();
    await until(() => body.state.cancelled);
  });

  it('ends open streams, and cancels them, when its signal aborts', async () => {
    const stopping = new AbortController();
    const body = manualStream();
    const port = await serve(
      () => ({ status: 200, headers: {}, body: '', stream: body.stream }),
      stopping.signal,
    );
    const res = await get(port);
    body.write('before\n');
    await until(() => res.chunks.length === 1);
    stopping.abort();
    await res.ended;
    expect(body.state.cancelled).toBe(true);
  });
});

describe('a Lambda function URL with a streamed response', () => {
  it('cancels the stream of a client that left before the response was ready', async () => {
    const body = manualStream();
    const out = new PassThrough();
    const handler = streamifyHandler(fakeStreamingRuntime(), async () => {
      // The client went away while the route was opening the stream: the response stream is gone.
      out.destroy();
      return { statusCode: 200, headers: {}, body: body.stream };
    });
    await Promise.resolve(handler(functionUrlEvent('/', {}), out, lambdaContext('status-stream'))).catch(
      () => undefined,
    );
    await until(() => body.state.cancelled);
  });
});

describe('a route that throws a plain Error, through every transport', () => {
  const lines: string[] = [];
  const logger = createLogger({ level: 'debug', write: (line) => lines.push(line) });
  const boom: Route = {
    method: 'GET',
    path: '/boom',
    auth: 'none',
    operationId: 'boom',
    tag: 'test',
    schemas: { responses: { 200: z.object({}) } },
    handler: async () => {
      throw new Error('connection to db-7.internal refused');
    },
  };
  const router = keylessRouter(boom, logger);
  const GENERIC = { error: 'internal error', code: 'INTERNAL' };
  const expectLoggedAndHidden = (body: string) => {
    expect(JSON.parse(body)).toEqual(GENERIC);
    expect(body).not.toContain('db-7');
    expect(lines.some((line) => line.includes('db-7.internal'))).toBe(true);
    lines.length = 0;
  };

  it('answers 500 INTERNAL from the local server', async () => {
    const server = createHttpServer((req) => router.handle(req), logger);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    close = () => new Promise((resolve) => server.close(() => resolve()));
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/boom`);
    expect(res.status).toBe(500);
    expectLoggedAndHidden(await res.text());
  });

  it('answers 500 INTERNAL through the API Gateway adapter', async () => {
    const event = { ...functionUrlEvent('/boom', {}) } as APIGatewayProxyEventV2;
    const result = await apiGatewayHandler(router, logger)(event);
    expect(result.statusCode).toBe(500);
    expectLoggedAndHidden(String(result.body));
  });

  /** The streaming adapter over the router, logging into `lines`. */
  const streamingHandler = () => {
    const powertools = createPowertoolsLogger({ level: 'debug', write: (line) => lines.push(line) });
    return createStatusStreamHandler({
      app: { router },
      powertools,
      logger: fromPowertools(powertools),
      runtime: fakeStreamingRuntime(),
    });
  };

  it('answers 500 INTERNAL through the streaming adapter', async () => {
    const handler = streamingHandler();
    const out = new PassThrough();
    const done = Promise.resolve(handler(functionUrlEvent('/boom', {}), out, lambdaContext('status-stream')));
    const read = readStreamedResponse(out, done);
    expect((await read.headReady).statusCode).toBe(500);
    await done;
    expectLoggedAndHidden(read.text());
  });

  it('answers a malformed event with a logged 500 INTERNAL in both Lambda adapters', async () => {
    const malformed = { rawPath: '/boom' } as unknown as APIGatewayProxyEventV2;
    const result = await apiGatewayHandler(router, logger)(malformed);
    expect(result.statusCode).toBe(500);
    expect(JSON.parse(String(result.body))).toEqual(GENERIC);
    expect(lines.some((line) => line.includes('unhandled error'))).toBe(true);

    const handler = streamingHandler();
    const out = new PassThrough();
    const done = Promise.resolve(handler(malformed, out, lambdaContext('status-stream')));
    const read = readStreamedResponse(out, done);
    expect((await read.headReady).statusCode).toBe(500);
    await done;
    expect(JSON.parse(read.text())).toEqual(GENERIC);
  });
});

describe('a route speaking web-standard Request and Response', () => {
  const echo: Route = {
    method: 'POST',
    path: '/echo',
    auth: 'none',
    body: 'raw',
    operationId: 'echo',
    tag: 'test',
    schemas: { responses: { 200: { contentType: 'text/plain', schema: z.string() } } },
    handler: async (ctx) => {
      const req = webRequest(ctx);
      const text = `${req.method} ${req.url} ${req.headers.get('x-thing')} ${await req.text()}`;
      // Two chunks, as a streaming transport would answer.
      const parts = [text.slice(0, 5), text.slice(5)];
      return new Response(
        new ReadableStream({
          pull(controller) {
            const part = parts.shift();
            if (part === undefined) controller.close();
            else controller.enqueue(new TextEncoder().encode(part));
          },
        }),
        { status: 200, headers: { 'content-type': 'text/plain; charset=utf-8' } },
      );
    },
  };
  const router = keylessRouter(echo, silentLogger);

  it('gets the request with its method, full URL, headers and body, and streams the Response back locally', async () => {
    const server = createHttpServer((req) => router.handle(req), silentLogger);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    close = () => new Promise((resolve) => server.close(() => resolve()));
    const port = (server.address() as AddressInfo).port;
    const res = await fetch(`http://127.0.0.1:${port}/echo?a=1`, {
      method: 'POST',
      headers: { 'x-thing': 'yes' },
      body: 'hello',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBeNull();
    expect(await res.text()).toBe(`POST http://127.0.0.1:${port}/echo?a=1 yes hello`);
  });

  it('is buffered whole through API Gateway, behind https', async () => {
    const event = {
      ...functionUrlEvent('/echo', { 'x-thing': 'yes', host: 'api.example.com' }),
      requestContext: {
        ...functionUrlEvent('/echo', {}).requestContext,
        http: {
          method: 'POST',
          path: '/echo',
          protocol: 'HTTP/1.1',
          sourceIp: '127.0.0.1',
          userAgent: 'vitest',
        },
      },
      body: 'hello',
    } as APIGatewayProxyEventV2;
    const result = await apiGatewayHandler(router, silentLogger)(event);
    expect(result).toMatchObject({
      statusCode: 200,
      body: 'POST https://api.example.com/echo yes hello',
      isBase64Encoded: false,
    });
  });
});
