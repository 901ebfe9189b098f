import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { errorResponse } from '../http/error-response.ts';
import { MAX_BODY_BYTES } from '../http/router.ts';
import type { HttpRequest, HttpResponse } from '../http/types.ts';
import { PayloadTooLargeError } from '../platform/errors.ts';
import type { Logger } from '../platform/logger.ts';

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buf.length;
    if (size > MAX_BODY_BYTES) throw new PayloadTooLargeError(MAX_BODY_BYTES);
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}

function toHttpRequest(req: IncomingMessage, body: Buffer): HttpRequest {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) if (!(name in query)) query[name] = value;
  return { method: req.method ?? 'GET', path: url.pathname, query, headers, body, requestId: randomUUID() };
}

function send(res: ServerResponse, response: HttpResponse): void {
  res.writeHead(response.status, response.headers);
  res.end(response.body);
}

/** A node:http server handing every request to `handle` (the shared router). */
export function createHttpServer(
  handle: (req: HttpRequest) => Promise<HttpResponse>,
  logger: Logger,
): Server {
  return createServer((req, res) => {
    readBody(req)
      .then((body) => handle(toHttpRequest(req, body)))
      .then((response) => send(res, response))
      .catch((err: unknown) => {
        const response = errorResponse(err, logger);
        response.headers.connection = 'close';
        send(res, response);
      });
  });
}
