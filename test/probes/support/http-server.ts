import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { createServer as createTcpServer, type Socket, type Server as TcpServer } from 'node:net';

/** A request the test server received. */
interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface TestHttpServer {
  /** "http://127.0.0.1:port" (https for a TLS server). */
  origin: string;
  port: number;
  requests: SeenRequest[];
  /** TCP connections accepted, to show a denied request never connected. */
  connections(): number;
  close(): Promise<void>;
}

const LARGE_BODY_BYTES = 1024 * 1024;

/**
 * Routes: /ok (200 "all ok"), /status/:code, /redirect/:n (a chain of n hops ending at /ok),
 * /redirect-to?status=302&location=..., /echo (JSON of the request), /slow (never answers),
 * /slow-body (headers, then silence), /large (1 MiB of "x" ending in "needle").
 */
function handle(server: Server | HttpsServer, requests: SeenRequest[]): void {
  server.on('request', (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://test');
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const parts = url.pathname.split('/').filter(Boolean);
      if (url.pathname === '/ok') res.end('all ok');
      else if (parts[0] === 'status') res.writeHead(Number(parts[1])).end(`status ${parts[1]}`);
      else if (parts[0] === 'redirect') {
        const n = Number(parts[1]);
        res.writeHead(302, { location: n <= 1 ? '/ok' : `/redirect/${n - 1}` }).end();
      } else if (url.pathname === '/redirect-to') {
        const status = Number(url.searchParams.get('status') ?? 302);
        res.writeHead(status, { location: url.searchParams.get('location') ?? '/ok' }).end();
      } else if (url.pathname === '/echo') {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ method: req.method, headers: req.headers, body }));
      } else if (url.pathname === '/slow') {
        // Never answers; the client's deadline ends it.
      } else if (url.pathname === '/slow-body') {
        res.writeHead(200);
        res.write('partial');
      } else if (url.pathname === '/large') {
        res.end(`${'x'.repeat(LARGE_BODY_BYTES - 6)}needle`);
      } else res.writeHead(404).end('not found');
    });
  });
}

async function listen(
  server: Server | HttpsServer,
  scheme: 'http' | 'https',
  requests: SeenRequest[],
): Promise<TestHttpServer> {
  let connections = 0;
  server.on('connection', () => {
    connections += 1;
  });
  handle(server, requests);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = portOf(server);
  return {
    origin: `${scheme}://127.0.0.1:${port}`,
    port,
    requests,
    connections: () => connections,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/** The port a listening server is bound to. */
export function portOf(server: TcpServer): number {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('server is not listening on TCP');
  return address.port;
}

/** Starts the test HTTP server on 127.0.0.1 with an ephemeral port. */
export function startHttpServer(): Promise<TestHttpServer> {
  return listen(createServer(), 'http', []);
}

/** The same routes over TLS with the given key and certificate. */
export function startHttpsServer(tls: { key: string; cert: string }): Promise<TestHttpServer> {
  return listen(createHttpsServer(tls), 'https', []);
}

/** A TCP server on 127.0.0.1 (an ephemeral port) handing each connection to `onSocket`: its port, and close. */
export async function listenTcp(
  onSocket: (socket: Socket) => void = () => {},
): Promise<{ port: number; close(): Promise<void> }> {
  const server = createTcpServer(onSocket);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: portOf(server),
    close: async () => {
      server.close();
      await once(server, 'close');
    },
  };
}

/** A port on 127.0.0.1 that was just free: connecting to it is refused. */
export async function closedPort(): Promise<number> {
  const { port, close } = await listenTcp();
  await close();
  return port;
}
