import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HttpTransport } from '../../../lib/egress/egress.ts';
import type { Resolve } from '../../../lib/egress/egress-guard.ts';
import { undiciRequest } from '../../../lib/egress/undici-client.ts';

/**
 * A provider's fixed API host (api.telegram.org, api.pushover.net, api.twilio.com) played by an
 * HTTPS server on 127.0.0.1: a certificate for those names (trusted through the egress `ca`), a
 * resolver that points them at 127.0.0.1 (the SSRF guard still judges that address: tests allow
 * 127.0.0.0/8), and a transport that dials the server's port instead of 443, leaving the URL's
 * host, SNI and path as the definition wrote them. Nothing reaches the real provider.
 */

const PROVIDER_HOSTS = [
  'api.telegram.org',
  'api.pushover.net',
  'api.twilio.com',
  'gotify.test',
  // Amazon SNS in the region of the test topic: its signing certificate and subscription confirmations.
  'sns.eu-west-1.amazonaws.com',
];

let pair: { key: string; cert: string } | undefined;

/** One self-signed certificate for every provider host (made once per test file). */
function providerTls(): { key: string; cert: string } {
  if (pair) return pair;
  const dir = mkdtempSync(join(tmpdir(), 'vigil-providers-'));
  try {
    const san = [...PROVIDER_HOSTS.map((h) => `DNS:${h}`), 'IP:127.0.0.1'].join(',');
    execFileSync(
      '/usr/bin/openssl',
      [
        ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
        ...['-keyout', 'key.pem', '-out', 'cert.pem', '-days', '2', '-subj', '/CN=Vigil test providers'],
        ...['-addext', `subjectAltName=${san}`],
      ],
      { cwd: dir, stdio: 'pipe' },
    );
    pair = {
      key: readFileSync(join(dir, 'key.pem'), 'utf8'),
      cert: readFileSync(join(dir, 'cert.pem'), 'utf8'),
    };
    return pair;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A request as a receiver read it. */
export interface ProviderRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A receiver's answer. */
export interface ProviderReply {
  status: number;
  headers?: Record<string, string>;
  /** The body as JSON; or `text`, sent as it is (a PEM certificate, an XML answer). */
  json?: unknown;
  text?: string;
}

export interface ProviderServer {
  port: number;
  /** Egress settings (HttpPostDeps / the harness's `egress`) that reach this server under the provider's name. */
  egress: { resolve: Resolve; ca: string[]; transport: HttpTransport };
  close(): Promise<void>;
}

/** Starts the HTTPS server answering each request with `handle`. */
export async function startProviderServer(
  handle: (req: ProviderRequest) => ProviderReply,
): Promise<ProviderServer> {
  const tls = providerTls();
  const server: Server = createServer(tls, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const reply = handle({
        method: req.method ?? '',
        path: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks),
      });
      const type = reply.text === undefined ? 'application/json' : 'text/plain';
      res.writeHead(reply.status, { 'content-type': type, ...reply.headers });
      res.end(reply.text ?? JSON.stringify(reply.json));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    egress: providerEgress(new Map(PROVIDER_HOSTS.map((host) => [host, port]))),
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/**
 * Egress settings that reach each provider host at its receiver's port on 127.0.0.1 (one harness
 * talking to several receivers: `new Map([[host, receiver.port], ...])`).
 */
export function providerEgress(ports: ReadonlyMap<string, number>): ProviderServer['egress'] {
  const resolve: Resolve = async (host) => (ports.has(host) ? [{ address: '127.0.0.1', family: 4 }] : []);
  const transport: HttpTransport = (req) => {
    const url = new URL(req.url);
    const port = ports.get(url.hostname);
    if (port !== undefined) url.port = String(port);
    return undiciRequest({ ...req, url });
  };
  return { resolve, ca: [providerTls().cert], transport };
}

/** A form or JSON body as a flat record of strings (the providers that take both parse both). */
export function bodyFields(req: ProviderRequest): Record<string, unknown> | undefined {
  const type = String(req.headers['content-type'] ?? '');
  const text = req.body.toString('utf8');
  if (type.startsWith('application/x-www-form-urlencoded'))
    return Object.fromEntries(new URLSearchParams(text));
  if (type.startsWith('application/json')) {
    try {
      const parsed: unknown = JSON.parse(text);
      return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}
