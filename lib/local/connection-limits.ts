import type { Server, ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import type { HttpLimits } from '../platform/config.ts';
import type { Logger } from '../platform/logger.ts';

/** node:http's own timeouts, from the configured limits. */
export function serverTimeouts(limits: HttpLimits): ServerOptions {
  return {
    // Also closes (with a 408) a connection that never sends a request: Node counts from the connection's start.
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // Node enforces the two timeouts above on this tick (30 s by default, as late as that): keep it
    // well under the header timeout, and at most a second.
    connectionsCheckingInterval: Math.min(1000, Math.max(25, Math.floor(limits.headersTimeoutMs / 4))),
  };
}

/**
 * Caps the server's open connections without locking new clients out: over the cap, the
 * connections that have been idle longest (keep-alive between requests, or connected without a
 * request yet) are closed to make room for the newcomer. A connection with a request in flight or
 * a response still streaming (an SSE stream) is never idle. Only when every connection is busy is
 * the newcomer itself closed. (`server.maxConnections` would refuse the newcomer instead, so a
 * crowd of idle sockets would keep /healthz and every real client out.)
 */
export function capConnections(server: Server, maxConnections: number, logger: Logger): void {
  const live = new Set<Socket>();
  /** Connections without a request in flight, longest idle first (a Set iterates in insertion order). */
  const idle = new Set<Socket>();
  const inFlight = new Map<Socket, number>();
  /** Logs once per episode of a full server, not once per connection of a flood. */
  let full = false;

  const forget = (socket: Socket) => {
    live.delete(socket);
    idle.delete(socket);
    inFlight.delete(socket);
  };

  server.on('connection', (socket: Socket) => {
    live.add(socket);
    idle.add(socket);
    socket.once('close', () => forget(socket));
    if (live.size <= maxConnections) {
      full = false;
      return;
    }
    if (!full)
      logger.warn('connection cap reached: closing idle connections', { max_connections: maxConnections });
    full = true;
    while (live.size > maxConnections) {
      const oldest: Socket | undefined = idle.values().next().value;
      // The newcomer is the last idle one: when it is the first, every other connection is busy.
      const victim = oldest === undefined || oldest === socket ? socket : oldest;
      forget(victim);
      victim.destroy();
      if (victim === socket) {
        logger.debug('connection refused: every connection is busy', { max_connections: maxConnections });
        return;
      }
    }
  });

  server.on('request', (req, res) => {
    const socket = req.socket;
    if (!live.has(socket)) return;
    inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
    idle.delete(socket);
    // 'close' comes once the response has ended (or the connection is gone), pipelined or not.
    res.once('close', () => {
      const left = (inFlight.get(socket) ?? 1) - 1;
      if (left > 0) inFlight.set(socket, left);
      else if (live.has(socket)) {
        inFlight.delete(socket);
        idle.add(socket);
      }
    });
  });
}
