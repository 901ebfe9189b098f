import { once } from 'node:events';
import type { IncomingHttpHeaders } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { HttpTransport } from '../../../lib/egress/egress.ts';
import { undiciRequest } from '../../../lib/egress/undici-client.ts';
import type { KeyPair } from '../tls-fixtures.ts';

/** A request a provider's stand-in read. */
export interface ProviderRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
}

/** What the stand-in answers. */
export interface ProviderAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface ProviderServer {
  origin: string;
  /**
   * A transport that sends what Vigil addresses to the provider's real host (events.pagerduty.com,
   * api.eu.opsgenie.com) to this server instead: the sender and the SSRF guard see the real URL,
   * only the connection lands on 127.0.0.1 (the test CA's certificate names 127.0.0.1).
   */
  transport: HttpTransport;
  /** Every host the transport was asked for, in order. */
  hosts: string[];
  close(): Promise<void>;
}

/** An HTTPS server on 127.0.0.1 answering JSON through `handle`. */
export async function startProviderServer(
  tls: KeyPair,
  handle: (request: ProviderRequest) => ProviderAnswer,
): Promise<ProviderServer> {
  const server: Server = createServer(tls, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'https://provider.invalid');
      const answer = handle({
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(JSON.stringify(answer.body));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('provider stand-in is not on TCP');
  const origin = `https://127.0.0.1:${address.port}`;
  const hosts: string[] = [];
  return {
    origin,
    hosts,
    transport: (req) => {
      hosts.push(req.url.host);
      return undiciRequest({ ...req, url: new URL(`${req.url.pathname}${req.url.search}`, origin) });
    },
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/** The body as a JSON object, or undefined when it is not one. */
export function jsonObject(body: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body);
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
