import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { createServer, type Server } from 'node:https';
import { listenOnLoopback } from '../../support/receivers/base.ts';
import type { KeyPair } from '../../support/tls-fixtures.ts';

/** A request a receiver read, with the exact body bytes. */
export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** For /webhook: whether X-Service-Signature verified against the receiver's secret. */
  signatureValid: boolean | undefined;
}

/** An HTTPS receiver on 127.0.0.1 standing in for Slack, Discord, ntfy and webhook endpoints. */
export interface Receiver {
  origin: string;
  received: Received[];
  close(): Promise<void>;
}

/**
 * Verifies `sha256=<hex>` the way a receiver should: recompute over the raw bytes and compare in
 * constant time (a length mismatch is a mismatch, never a throw).
 */
function verifySignature(secret: string, body: Buffer, header: string | undefined): boolean {
  if (!header?.startsWith('sha256=')) return false;
  const expected = createHmac('sha256', secret).update(body).digest();
  const given = Buffer.from(header.slice('sha256='.length), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Routes: /webhook (verifies the signature with `secret`: 204 when valid, 401 when not),
 * /status/<code>, /redirect (302 elsewhere), anything else 200 "ok".
 */
export async function startReceiver(tls: KeyPair, secret: string): Promise<Receiver> {
  const received: Received[] = [];
  const server: Server = createServer(tls, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      const body = Buffer.concat(chunks);
      const header = req.headers['x-service-signature'];
      const signatureValid =
        path === '/webhook'
          ? verifySignature(secret, body, typeof header === 'string' ? header : undefined)
          : undefined;
      received.push({ path, headers: req.headers, body, signatureValid });
      const status = /^\/status\/(\d{3})$/.exec(path)?.[1];
      if (status) res.writeHead(Number(status)).end(`answer ${status}`);
      else if (path === '/redirect') res.writeHead(302, { location: 'https://example.com/' }).end();
      else if (path === '/webhook') res.writeHead(signatureValid ? 204 : 401).end();
      else res.end('ok');
    });
  });
  const { origin, close } = await listenOnLoopback(server);
  return { origin, received, close };
}
