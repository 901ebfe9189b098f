import { once } from 'node:events';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { type GuardOptions, resolveAllowed } from '../../egress/egress-guard.ts';

/**
 * The forward proxy a browser check's Chromium sends every request through (started with
 * `--proxy-server` it and `<-loopback>`, so loopback too): plain-HTTP requests, CONNECT tunnels
 * (https, and websockets, which Chromium tunnels through an HTTP proxy) and upgrades. Each host is
 * resolved and every address judged by the SSRF guard (lib/egress/egress-guard.ts) before a byte
 * leaves, and the connection goes to the judged address, so a name cannot resolve again to another
 * (DNS rebinding). A refused request answers 403 and is remembered for the step that made it.
 */

/** A request the guard refused: the host asked for, and why. */
export interface Refusal {
  host: string;
  reason: string;
}

export interface GuardedProxy {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** The refusals since the last take, emptied. */
  takeRefusals(): Refusal[];
  close(): Promise<void>;
}

/** "host:port" (or "[v6]:port") split; the default port when absent. */
function hostPort(authority: string, defaultPort: number): { host: string; port: number } {
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(authority);
  return { host: match?.[1] ?? authority, port: match?.[2] ? Number(match[2]) : defaultPort };
}

/** Starts the proxy on 127.0.0.1 (an ephemeral port), judging with `guard`. */
export async function startGuardedProxy(guard: GuardOptions): Promise<GuardedProxy> {
  let refusals: Refusal[] = [];
  const sockets = new Set<Socket>();
  const judge = async (host: string): Promise<string | Refusal> => {
    try {
      const [first] = await resolveAllowed(host, guard);
      return first ? first.address : { host, reason: `could not resolve host ${host}` };
    } catch (err) {
      return { host, reason: err instanceof Error ? err.message : String(err) };
    }
  };
  const refuse = (refusal: Refusal) => {
    refusals.push(refusal);
    return `HTTP/1.1 403 Forbidden\r\nx-vigil-egress: refused\r\ncontent-length: 0\r\nconnection: close\r\n\r\n`;
  };
  const tunnel = async (client: Socket, authority: string, head: Buffer, prelude: string | undefined) => {
    const { host, port } = hostPort(authority, 443);
    const address = await judge(host);
    if (typeof address !== 'string') return void client.end(refuse(address));
    const upstream = connect({ host: address, port });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('connect', () => {
      if (prelude === undefined) client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      else upstream.write(prelude);
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
  };
  /** A client socket of the proxy's own: tracked, and a reset from Chromium (a load it dropped) only closes it. */
  const own = (client: Socket) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
  };
  const server: Server = createServer((req, res) => {
    req.on('error', () => res.destroy());
    void (async () => {
      const target = parseAbsolute(req.url ?? '');
      if (!target) return void res.writeHead(400).end();
      const address = await judge(target.hostname);
      if (typeof address !== 'string') {
        refuse(address);
        return void res.writeHead(403, { 'x-vigil-egress': 'refused' }).end();
      }
      const upstream = httpRequest(
        {
          host: address,
          port: target.port === '' ? 80 : Number(target.port),
          method: req.method,
          path: `${target.pathname}${target.search}`,
          headers: withoutProxyHeaders(req),
          setHost: false,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      res.on('close', () => upstream.destroy());
      req.pipe(upstream);
    })();
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    own(client);
    void tunnel(client, req.url ?? '', head, undefined);
  });
  server.on('upgrade', (req: IncomingMessage, client: Socket, head: Buffer) => {
    own(client);
    const target = parseAbsolute(req.url ?? '');
    if (!target) return void client.destroy();
    const lines = [`${req.method} ${target.pathname}${target.search} HTTP/1.1`];
    for (let i = 0; i < req.rawHeaders.length; i += 2)
      lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
    void tunnel(client, `${target.hostname}:${target.port || 80}`, head, `${lines.join('\r\n')}\r\n\r\n`);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    takeRefusals: () => {
      const taken = refusals;
      refusals = [];
      return taken;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** An absolute http(s) URL a proxy request names, or undefined. */
function parseAbsolute(url: string): URL | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'ws:' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** The request's headers as received, without the ones meant for the proxy. */
function withoutProxyHeaders(req: IncomingMessage): string[] {
  const out: string[] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i] ?? '';
    if (/^proxy-/i.test(name)) continue;
    out.push(name, req.rawHeaders[i + 1] ?? '');
  }
  return out;
}
