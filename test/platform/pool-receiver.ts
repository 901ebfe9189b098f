import { once } from 'node:events';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { KeyPair } from '../support/tls-fixtures.ts';

/** An HTTPS receiver on one loopback address that counts its connections, as the pool tests read them. */
export interface PoolReceiver {
  host: string;
  port: number;
  /** TLS connections accepted so far. */
  connections(): number;
  /** Connections open now (closed ones leave). */
  open(): number;
  /** The SNI names of the connections open now (false: none sent). */
  openNames(): (string | false)[];
  /** The SNI name of each accepted connection, in order (false: none sent). */
  servernames: (string | false)[];
  /** Requests answered. */
  requests(): number;
  close(): Promise<void>;
}

/**
 * Listens on `host` (any 127.x address) and `port` (0: any). Idle connections are kept 30 s on
 * this side, so a connection that closes sooner was closed by the client. Answers 200 "ok" to
 * every request once its body is read.
 */
export async function startPoolReceiver(tls: KeyPair, host: string, port = 0): Promise<PoolReceiver> {
  const sockets = new Set<TLSSocket>();
  const servernames: (string | false)[] = [];
  let connections = 0;
  let requests = 0;
  const server: Server = createServer(tls, (req, res) => {
    req.resume();
    req.on('end', () => {
      requests += 1;
      res.end('ok');
    });
  });
  server.keepAliveTimeout = 30_000;
  server.on('secureConnection', (socket: TLSSocket) => {
    connections += 1;
    servernames.push(socket.servername ?? false);
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.listen(port, host);
  await once(server, 'listening');
  return {
    host,
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    open: () => sockets.size,
    openNames: () => [...sockets].map((s) => s.servername ?? false),
    servernames,
    requests: () => requests,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/** Two receivers on one port, at 127.0.0.1 and 127.0.0.2: a name moving between them keeps its URL. */
export async function startReceiverPair(tls: KeyPair): Promise<[PoolReceiver, PoolReceiver]> {
  for (let attempt = 0; ; attempt += 1) {
    const first = await startPoolReceiver(tls, '127.0.0.1');
    try {
      return [first, await startPoolReceiver(tls, '127.0.0.2', first.port)];
    } catch (err) {
      await first.close();
      if (attempt >= 4) throw err;
    }
  }
}
