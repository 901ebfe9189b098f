import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { createMcpHandler } from '../../functions/mcp.ts';
import { createCloudApp } from '../../lib/cloud/http-composition.ts';
import { loadConfig } from '../../lib/platform/config.ts';
import { lambdaContext } from '../cloud/support.ts';
import { fakeStreamingRuntime, functionUrlEvent } from '../status/stream-drivers.ts';
import { startLocalHarness } from '../support/api-harness.ts';
import { createTestTable, type TestTable } from '../support/dynamodb-local.ts';

// The official MCP conformance suite's DNS-rebinding scenario (@modelcontextprotocol/conformance,
// `server --scenario dns-rebinding-protection`) against /v1/mcp of both runtimes: an initialize
// with `Host: evil.example.com` and `Origin: http://evil.example.com` must be refused (4xx), one
// with the server's own localhost Host and Origin answered (2xx). The scenario sends no
// credentials and Vigil's MCP endpoint needs a key, so the suite talks to a loopback front that
// adds `Authorization: Bearer <key>` and passes everything else (Host and Origin included) as sent.

// functions/mcp.ts builds its module-scope handler from the Lambda runtime's global.
vi.hoisted(() => {
  Object.assign(globalThis, {
    awslambda: {
      streamifyResponse: (handler: unknown) => handler,
      HttpResponseStream: { from: (stream: unknown) => stream },
    },
  });
});

const CLI = fileURLToPath(import.meta.resolve('@modelcontextprotocol/conformance/dist/index.js'));
const PRELUDE_END = Buffer.alloc(8);

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
  details?: unknown;
}

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Headers of an incoming request, one value each. */
function headersOf(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers))
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  return headers;
}

async function listenLoopback(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** Runs the scenario against `url` (a localhost URL, as it requires) and returns its checks. */
async function runScenario(url: string): Promise<Check[]> {
  const out = mkdtempSync(join(tmpdir(), 'vigil-conformance-'));
  try {
    // It exits 1 when a check fails; the checks it wrote say which, so they are what is judged.
    await promisify(execFile)(
      process.execPath,
      [CLI, 'server', '--url', url, '--scenario', 'dns-rebinding-protection', '-o', out],
      { timeout: 60_000 },
    ).catch(() => undefined);
    const [run] = readdirSync(out);
    if (run === undefined) throw new Error('the conformance run wrote no results');
    return JSON.parse(readFileSync(join(out, run, 'checks.json'), 'utf8')) as Check[];
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

function expectPassed(checks: Check[]) {
  const ids = checks.map((c) => c.id);
  expect(ids).toEqual(
    expect.arrayContaining(['localhost-host-rebinding-rejected', 'localhost-host-valid-accepted']),
  );
  for (const check of checks) expect(check.status, JSON.stringify(check)).toBe('SUCCESS');
}

describe('the MCP conformance suite: dns-rebinding-protection', () => {
  const servers: Server[] = [];
  afterAll(async () => {
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  describe('local runtime', () => {
    let api: Awaited<ReturnType<typeof startLocalHarness>>;
    let front: string;
    beforeAll(async () => {
      api = await startLocalHarness();
      const target = new URL(api.local.url);
      const server = createServer(async (req, res) => {
        const body = await bodyOf(req);
        const headers = { ...headersOf(req), authorization: `Bearer ${api.adminKey}` };
        const out = httpRequest(
          { host: target.hostname, port: target.port, method: req.method, path: req.url, headers },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        out.on('error', () => res.destroy());
        out.end(body);
      });
      servers.push(server);
      front = `http://localhost:${await listenLoopback(server)}/v1/mcp`;
    });
    afterAll(() => api?.close());

    it('passes', async () => {
      expectPassed(await runScenario(front));
    });
  });

  describe('cloud MCP function (function URL events, DynamoDB Local)', () => {
    let testTable: TestTable;
    let front: string;
    beforeAll(async () => {
      testTable = await createTestTable(inject('dynamodbEndpoint'));
      const config = loadConfig('cloud', {
        VIGIL_TABLE_NAME: testTable.tableName,
        VIGIL_LOG_LEVEL: 'silent',
      });
      const cloud = createCloudApp(config, { dynamodb: testTable.client, logWrite: () => {} });
      const { rawKey } = await cloud.app.tenants.createTenant({ name: 'Acme', email: 'ops@acme.test' });
      const handler = createMcpHandler({ ...cloud, runtime: fakeStreamingRuntime() });
      // What a function URL makes of a request: a payload v2 event (the request's own Host kept),
      // the streamed answer's prelude and body relayed once the invocation ends (JSON answers).
      const server = createServer(async (req, res) => {
        const body = await bodyOf(req);
        const url = new URL(req.url ?? '/', 'http://127.0.0.1');
        // This front is reached over http, so it says http where a function URL says https.
        const event = functionUrlEvent(url.pathname, {
          ...headersOf(req),
          'x-forwarded-proto': 'http',
          authorization: `Bearer ${rawKey}`,
        });
        event.rawQueryString = url.search.slice(1);
        event.requestContext.http.method = req.method ?? 'GET';
        event.body = body.length > 0 ? body.toString('base64') : undefined;
        event.isBase64Encoded = body.length > 0;
        const stream = new PassThrough();
        const written: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => written.push(chunk));
        await handler(event, stream, lambdaContext('mcp'));
        const all = Buffer.concat(written);
        const end = all.indexOf(PRELUDE_END);
        const prelude = JSON.parse(all.subarray(0, end).toString()) as {
          statusCode: number;
          headers: Record<string, string>;
        };
        res.writeHead(prelude.statusCode, prelude.headers);
        res.end(all.subarray(end + PRELUDE_END.length));
      });
      servers.push(server);
      front = `http://localhost:${await listenLoopback(server)}/v1/mcp`;
    }, 60_000);
    afterAll(() => testTable?.drop());

    it('passes', async () => {
      expectPassed(await runScenario(front));
    });
  });
});
