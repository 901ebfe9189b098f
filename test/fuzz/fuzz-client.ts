import { Agent, request } from 'node:http';

/** One generated request, as it goes on the wire. */
export interface FuzzRequest {
  method: string;
  /** Path and query string, already percent-encoded where the client requires it. */
  target: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** What the generator meant (body kind, param kind), to make counterexamples readable. */
  note: string;
}

/** What came back, and how long it took from the first byte sent to the last byte read. */
export interface FuzzAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  ms: number;
  /** A transport failure (reset, hang past the deadline) instead of an answer. */
  failure?: string;
}

export interface FuzzClient {
  send(req: FuzzRequest): Promise<FuzzAnswer>;
  close(): void;
}

/**
 * A keep-alive HTTP/1.1 client for the fuzz suite. node:http rather than fetch: fetch refuses some
 * header values and bodies on GET, which the fuzz suite sends on purpose.
 */
export function createFuzzClient(
  baseUrl: string,
  options: { sockets: number; deadlineMs: number },
): FuzzClient {
  const url = new URL(baseUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: options.sockets });
  const send = (req: FuzzRequest, retried = false): Promise<FuzzAnswer> =>
    new Promise<FuzzAnswer>((resolve) => {
      const started = performance.now();
      let settled = false;
      const done = (answer: Omit<FuzzAnswer, 'ms'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ ...answer, ms: performance.now() - started });
      };
      const outgoing = request({
        host: url.hostname,
        port: url.port,
        method: req.method,
        path: req.target,
        agent,
        headers: { ...req.headers, 'content-length': String(req.body?.length ?? 0) },
      });
      // Twice the deadline: a slow answer is reported with its time, a hung one as a hang.
      const timer = setTimeout(() => {
        done({ status: 0, headers: {}, body: '', failure: `no answer within ${2 * options.deadlineMs} ms` });
        outgoing.destroy();
      }, 2 * options.deadlineMs);
      outgoing.on('error', (err: NodeJS.ErrnoException) => {
        // A kept-alive socket the server closed as idle just as this request went out (the race
        // Node's docs describe for `reusedSocket`): the server never read the request, so it is
        // sent once more on a fresh socket. A busy machine makes the race likely; it is no answer.
        if (!retried && !settled && outgoing.reusedSocket && err.code === 'ECONNRESET') {
          settled = true;
          clearTimeout(timer);
          resolve(send(req, true));
          return;
        }
        done({ status: 0, headers: {}, body: '', failure: String(err) });
      });
      outgoing.on('response', (res) => {
        // An event stream is cut short after its head, whichever route's request opened it (a GET
        // generated for POST /v1/mcp opens the MCP stream); everything else is read to its end.
        if (String(res.headers['content-type']).startsWith('text/event-stream')) {
          done({ status: res.statusCode ?? 0, headers: res.headers, body: '' });
          outgoing.destroy();
          return;
        }
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', (err) => done({ status: 0, headers: {}, body: '', failure: String(err) }));
        res.on('end', () =>
          done({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      });
      outgoing.end(req.body);
    });
  return { send, close: () => agent.destroy() };
}
