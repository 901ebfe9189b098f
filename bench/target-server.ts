import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { onParentMessage, reply } from './child.ts';

/**
 * Child process: the loopback probe target (200 "ok"), apart from the process under test so it
 * never shares its event loop. Answers `{type:'hits'}` with its request count and CPU time.
 */

let hits = 0;
const server = createServer((_req, res) => {
  hits += 1;
  res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' });
  res.end('ok');
});
server.keepAliveTimeout = 5000;

await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', 4096, () => resolve()));
const { port } = server.address() as AddressInfo;

onParentMessage(z.object({ type: z.literal('hits') }), async () => {
  const cpu = process.cpuUsage();
  reply({ type: 'hits', hits, atMs: Date.now(), cpuMs: (cpu.user + cpu.system) / 1000 });
});
reply({ type: 'ready', url: `http://127.0.0.1:${port}/health` });
