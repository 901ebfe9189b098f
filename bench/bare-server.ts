import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { reply } from './child.ts';

/**
 * Child process: the HTTP ceiling for push ingestion. A bare node:http server that reads the
 * body, parses the JSON and answers 201 with a small JSON body, and nothing else.
 */

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    let status = 201;
    try {
      JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      status = 400;
    }
    const body = JSON.stringify({ id: 'res_bare', accepted: status === 201 });
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
});

await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', 4096, () => resolve()));
reply({ type: 'ready', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
process.on('disconnect', () => process.exit(0));
