import { once } from 'node:events';
import type { IncomingHttpHeaders } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { KeyPair } from '../tls-fixtures.ts';

/** A request a provider's receiver read: method, path with query, headers and the exact body. */
export interface ProviderRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** What the receiver answers: the provider's status, headers and body. */
export interface ProviderAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface ProviderReceiver {
  origin: string;
  /** Every request, with the answer it got. */
  received: { request: ProviderRequest; answer: ProviderAnswer }[];
  /** The next request is answered so, whatever it holds (a rate limit, an outage). */
  answerNext(answer: ProviderAnswer): void;
  close(): Promise<void>;
}

export const json = (
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): ProviderAnswer => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

/** An HTTPS server on 127.0.0.1 that answers each request as `answer` (the provider's documented rules) says. */
export async function startProviderReceiver(
  tls: KeyPair,
  answer: (request: ProviderRequest) => ProviderAnswer,
): Promise<ProviderReceiver> {
  const received: ProviderReceiver['received'] = [];
  const forced: ProviderAnswer[] = [];
  const server = createServer(tls, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      const given = forced.shift() ?? answer(request);
      received.push({ request, answer: given });
      res.writeHead(given.status, given.headers).end(given.body ?? '');
    });
  });
  const { origin, close } = await listenOnLoopback(server);
  return { origin, received, answerNext: (given) => forced.push(given), close };
}

/**
 * An HTTPS server listening on 127.0.0.1 (a free port): its origin, and a close that ends the open
 * connections first.
 */
export async function listenOnLoopback(server: Server): Promise<{ origin: string; close(): Promise<void> }> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('receiver is not on TCP');
  return {
    origin: `https://127.0.0.1:${address.port}`,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/** The JSON body, or undefined when it is not JSON. */
export function parsedBody(request: ProviderRequest): unknown {
  try {
    return JSON.parse(request.body.toString('utf8'));
  } catch {
    return undefined;
  }
}
