import { createServer } from 'node:http';

/** A loopback HTTP server answering every request with the status it is currently set to. */
export async function startStatusServer(initial = 200) {
  let status = initial;
  let hits = 0;
  const server = createServer((_req, res) => {
    hits += 1;
    res.writeHead(status).end(`status ${status}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/health`,
    set: (next: number) => {
      status = next;
    },
    hits: () => hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
