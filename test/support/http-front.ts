import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ApiHarness } from './api-harness.ts';

/** Response headers a front computes itself for the bytes it sends. */
const HOP_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive']);

/**
 * A real HTTP server on 127.0.0.1 in front of a harness: each request becomes one `api.request`
 * (for the Lambda harness, an API Gateway v2 event for the api handler, built as api-harness.ts
 * builds them), so clients that only speak HTTP (curl, npm packages, `vigil run`) reach the cloud
 * runtime too. As API Gateway does, a HEAD answer carries the headers and no body.
 */
export async function startHttpFront(api: ApiHarness): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(',') : value;
      }
      const body = Buffer.concat(chunks);
      api
        .request(req.method ?? 'GET', req.url ?? '/', {
          headers,
          ...(body.length > 0 ? { rawBody: body } : {}),
        })
        .then((answer) => {
          for (const [name, value] of Object.entries(answer.headers)) {
            if (!HOP_HEADERS.has(name)) res.setHeader(name, value);
          }
          res.writeHead(answer.status);
          res.end(req.method === 'HEAD' ? undefined : answer.text);
        })
        .catch((err: unknown) => {
          res.writeHead(502).end(String(err));
        });
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
