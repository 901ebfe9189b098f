import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import type { LambdaFunctionURLEvent } from 'aws-lambda';
import type { createMcpHandler } from '../../functions/mcp.ts';
import { lambdaContext } from '../support/lambda-context.ts';

/**
 * Loopback HTTP fronts for /v1/mcp of both runtimes, for clients that cannot be handed a fetch
 * (the conformance CLI, a v1 or v2 SDK client over its own HTTP): the local runtime's port as it
 * is, or the cloud MCP function as a function URL runs it (a payload v2 event per request, the
 * streamed prelude and body relayed as written). With `key`, the front adds `Authorization:
 * Bearer <key>` to requests that have none (the conformance suite sends no credentials); Host,
 * Origin and everything else pass as sent.
 */

const PRELUDE_END = Buffer.alloc(8);

export interface McpFront {
  /** `http://localhost:<port>/v1/mcp` (the conformance suite requires a localhost URL). */
  url: string;
  close(): Promise<void>;
}

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Headers of an incoming request, one value each, with the key added when none is sent. */
function headersOf(req: IncomingMessage, key: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers))
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  if (key !== undefined && headers.authorization === undefined) headers.authorization = `Bearer ${key}`;
  return headers;
}

async function listen(server: Server): Promise<McpFront> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}/v1/mcp`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A front passing each request to the local runtime at `target` (its base URL). */
export function localFront(target: string, key?: string): Promise<McpFront> {
  const base = new URL(target);
  const server = createServer(async (req, res) => {
    const body = await bodyOf(req);
    const out = httpRequest(
      {
        host: base.hostname,
        port: base.port,
        method: req.method,
        path: req.url,
        headers: headersOf(req, key),
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    out.end(body);
  });
  return listen(server);
}

let invocations = 0;

/** What a function URL hands its function for one HTTP request (payload v2). */
function functionUrlEvent(
  req: IncomingMessage,
  body: Buffer,
  key: string | undefined,
): LambdaFunctionURLEvent {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const method = req.method ?? 'GET';
  invocations += 1;
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    // This front is reached over http, so it says http where a function URL says https.
    headers: { ...headersOf(req, key), 'x-forwarded-proto': 'http' },
    requestContext: {
      accountId: 'anonymous',
      apiId: 'abc123',
      domainName: 'abc123.lambda-url.us-east-1.on.aws',
      domainPrefix: 'abc123',
      http: { method, path: url.pathname, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'vitest' },
      requestId: `url-${invocations}`,
      routeKey: '$default',
      stage: '$default',
      time: new Date().toISOString(),
      timeEpoch: Date.now(),
    },
    ...(body.length > 0 ? { body: body.toString('base64') } : {}),
    isBase64Encoded: body.length > 0,
  };
}

/**
 * The response stream a streaming Lambda handler writes to, relayed to `res` as the function URL
 * does: the JSON prelude (status and headers, then 8 zero bytes) becomes the head, the rest the
 * body. `onStatus` sees the status. The client going away fails the stream under the writer.
 */
export function streamedResponse(res: ServerResponse, onStatus?: (status: number) => void): PassThrough {
  const stream = new PassThrough();
  res.on('close', () => stream.destroy());
  let head = Buffer.alloc(0);
  let started = false;
  stream.on('data', (chunk: Buffer) => {
    if (started) {
      res.write(chunk);
      return;
    }
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf(PRELUDE_END);
    if (end < 0) return;
    const prelude = JSON.parse(head.subarray(0, end).toString()) as {
      statusCode: number;
      headers: Record<string, string>;
    };
    started = true;
    onStatus?.(prelude.statusCode);
    res.writeHead(prelude.statusCode, prelude.headers);
    res.flushHeaders();
    const rest = head.subarray(end + PRELUDE_END.length);
    if (rest.length > 0) res.write(rest);
  });
  return stream;
}

/** A front invoking the MCP function's handler once per request, as its function URL does. */
export function functionUrlFront(
  handler: ReturnType<typeof createMcpHandler>,
  key?: string,
): Promise<McpFront> {
  const server = createServer(async (req, res) => {
    const event = functionUrlEvent(req, await bodyOf(req), key);
    const stream = streamedResponse(res);
    try {
      await handler(event, stream, lambdaContext('mcp'));
      res.end();
    } catch {
      res.destroy();
    }
  });
  return listen(server);
}
