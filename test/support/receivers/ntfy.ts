import { once } from 'node:events';
import type { IncomingHttpHeaders } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An ntfy server's topic on loopback (plain HTTP): the texts it was sent, and each request's
 * headers, oldest first. With `token`, the topic is protected: a publish without that bearer token
 * is refused as ntfy refuses it (403, `{"code":40301,"http":403,"error":"forbidden",...}`).
 */
export async function startNtfyReceiver(topic: string, options: { token?: string } = {}) {
  const bodies: string[] = [];
  const headers: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (options.token && req.headers.authorization !== `Bearer ${options.token}`) {
        const refusal = {
          code: 40301,
          http: 403,
          error: 'forbidden',
          link: 'https://ntfy.sh/docs/publish/#authentication',
        };
        res.writeHead(403, { 'content-type': 'application/json' }).end(JSON.stringify(refusal));
        return;
      }
      bodies.push(Buffer.concat(chunks).toString('utf8'));
      headers.push(req.headers);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"x"}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/${topic}`,
    bodies,
    headers,
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
