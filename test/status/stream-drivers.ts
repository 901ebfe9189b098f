import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, type Writable } from 'node:stream';
import type { LambdaFunctionURLEvent } from 'aws-lambda';
import { inject } from 'vitest';
import { createStatusStreamHandler } from '../../functions/status-stream.ts';
import type { App } from '../../lib/app.ts';
import { createCloudApp } from '../../lib/cloud/http-composition.ts';
import type { LambdaStreamingRuntime } from '../../lib/lambda-http/stream-lambda.ts';
import { type LocalRuntime, startLocalRuntime } from '../../lib/local/runtime.ts';
import { loadConfig } from '../../lib/platform/config.ts';
import { createLogger } from '../../lib/platform/logger.ts';
import type { StatusStreamSettings } from '../../lib/status/stream-service.ts';
import type { Table } from '../../lib/store/table.ts';
import { lambdaContext } from '../cloud/support.ts';
import { createTestTable } from '../support/dynamodb-local.ts';
import { createSseCollector, openStream, type SseConnection } from './stream-client.ts';

/** One runtime serving GET /v1/status/stream, driven the same way in every scenario. */
export interface StreamDriver {
  runtime: 'local' | 'lambda';
  app: App;
  adminKey: string;
  tenantId: string;
  /** The store behind the runtime (tests seed transitions in it). */
  table: Table;
  /** Locally: runs the change feed's consumers over what was written (the cloud's feed is not fed here). */
  drainChanges(): Promise<void>;
  /** A JSON API call (writes that cause transitions, key creation). */
  // biome-ignore lint/suspicious/noExplicitAny: test responses are inspected freely
  api(method: string, path: string, key: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** Opens the status stream with these request headers. */
  open(headers: Record<string, string>): Promise<SseConnection>;
  close(): Promise<void>;
}

export interface DriverOptions {
  heartbeatMs?: number;
  /** Cloud: how the streaming function polls and when it ends. */
  pollMs?: number;
  maxDurationMs?: number;
  /** Extra environment (e.g. the open-stream caps). */
  env?: Record<string, string>;
}

/** Rate limits off: a scenario makes many calls from one address in a moment. */
const TEST_ENV = { VIGIL_LOG_LEVEL: 'debug', VIGIL_RATE_LIMIT_RPS: '0', VIGIL_AUTH_FAILURE_LIMIT: '0' };

/** The local runtime on an ephemeral loopback port; the stream is read over real HTTP with fetch. */
export async function startLocalDriver(
  options: DriverOptions = {},
): Promise<StreamDriver & { local: LocalRuntime }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-stream-'));
  const config = { ...loadConfig('local', { ...TEST_ENV, ...options.env }), dataDir, port: 0 };
  const local = await startLocalRuntime({
    config,
    logger: createLogger({ level: 'silent' }),
    host: '127.0.0.1',
    scheduler: false,
    ...(options.heartbeatMs ? { statusStream: { heartbeatMs: options.heartbeatMs } } : {}),
  });
  const tenantId = (await local.app.tenants.listTenants())[0]?.id ?? '';
  return {
    runtime: 'local',
    local,
    app: local.app,
    table: local.table,
    drainChanges: () => local.drainChanges(),
    adminKey: local.bootstrapKey ?? '',
    tenantId,
    async api(method, path, key, body) {
      const res = await fetch(`${local.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    },
    open: (headers) => openStream(`${local.url}/v1/status/stream`, headers),
    async close() {
      await local.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const PRELUDE_END = Buffer.alloc(8);

/**
 * A stand-in for the Lambda Node runtime's `awslambda` with its shape and wire behaviour: the
 * handler is called with (event, responseStream, context), and HttpResponseStream.from writes the
 * JSON prelude and eight NUL bytes before the body, as the real runtime does.
 */
export function fakeStreamingRuntime(): LambdaStreamingRuntime<Writable> {
  return {
    streamifyResponse: (handler) => handler,
    HttpResponseStream: {
      from(responseStream, prelude) {
        responseStream.write(Buffer.concat([Buffer.from(JSON.stringify(prelude)), PRELUDE_END]));
        return responseStream;
      },
    },
  };
}

/** Reads what the streaming handler writes: the prelude, then the body as events. */
export function readStreamedResponse(responseStream: PassThrough, done: Promise<void>) {
  const collector = createSseCollector();
  let buffered = Buffer.alloc(0);
  let prelude: { statusCode: number; headers: Record<string, string> } | undefined;
  let text = '';
  const headReady = new Promise<NonNullable<typeof prelude>>((resolve, reject) => {
    responseStream.on('data', (chunk: Buffer) => {
      if (prelude) {
        text += chunk.toString();
        collector.feed(chunk.toString());
        return;
      }
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf(PRELUDE_END);
      if (end < 0) return;
      prelude = JSON.parse(buffered.subarray(0, end).toString());
      const rest = buffered.subarray(end + PRELUDE_END.length).toString();
      text += rest;
      collector.feed(rest);
      resolve(prelude as NonNullable<typeof prelude>);
    });
    done.then(() => {
      if (!prelude) reject(new Error('the handler ended without a prelude'));
    }, reject);
  });
  return { collector, headReady, text: () => text };
}

let urlRequests = 0;

/** A function URL event (payload v2) for `path`. */
export function functionUrlEvent(path: string, headers: Record<string, string>): LambdaFunctionURLEvent {
  urlRequests += 1;
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: path,
    rawQueryString: '',
    headers: { host: 'abc123.lambda-url.us-east-1.on.aws', 'x-forwarded-proto': 'https', ...headers },
    requestContext: {
      accountId: 'anonymous',
      apiId: 'abc123',
      domainName: 'abc123.lambda-url.us-east-1.on.aws',
      domainPrefix: 'abc123',
      http: { method: 'GET', path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'vitest' },
      requestId: `url-${urlRequests}`,
      routeKey: '$default',
      stage: '$default',
      time: new Date().toISOString(),
      timeEpoch: Date.now(),
    },
    isBase64Encoded: false,
  };
}

/** The status-stream function (functions/status-stream.ts) under a fake runtime over DynamoDB Local. */
export async function startLambdaDriver(
  options: DriverOptions = {},
): Promise<StreamDriver & { logs: string[] }> {
  const testTable = await createTestTable(inject('dynamodbEndpoint'));
  const logs: string[] = [];
  const settings: StatusStreamSettings = {
    follow: 'poll',
    pollMs: options.pollMs ?? 200,
    maxDurationMs: options.maxDurationMs ?? 20_000,
    ...(options.heartbeatMs ? { heartbeatMs: options.heartbeatMs } : {}),
  };
  const cloud = createCloudApp(
    loadConfig('cloud', { ...TEST_ENV, ...options.env, VIGIL_TABLE_NAME: testTable.tableName }),
    {
      dynamodb: testTable.client,
      logWrite: (line) => logs.push(line),
      statusStream: settings,
    },
  );
  const handler = createStatusStreamHandler({ ...cloud, runtime: fakeStreamingRuntime() });
  const first = await cloud.app.tenants.createTenant({ name: 'Acme', email: 'ops@acme.test' });
  const open: SseConnection[] = [];
  return {
    runtime: 'lambda',
    app: cloud.app,
    table: cloud.table,
    drainChanges: async () => {},
    logs,
    adminKey: first.rawKey,
    tenantId: first.tenant.id,
    async api(method, path, key, body) {
      const [rawPath = path, rawQuery = ''] = path.split('?');
      const res = await cloud.app.router.handle({
        method,
        path: rawPath,
        query: Object.fromEntries(new URLSearchParams(rawQuery)),
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(body)),
        requestId: 'driver',
      });
      return { status: res.status, body: res.body ? JSON.parse(res.body) : undefined };
    },
    async open(headers) {
      const responseStream = new PassThrough();
      const done = Promise.resolve().then(() =>
        handler(
          functionUrlEvent('/v1/status/stream', headers),
          responseStream,
          lambdaContext('status-stream'),
        ),
      );
      const read = readStreamedResponse(responseStream, done);
      const prelude = await read.headReady;
      const connection: SseConnection = {
        ...read.collector,
        status: prelude.statusCode,
        headers: new Headers(prelude.headers),
        ended: done.catch(() => undefined),
        // The client going away: the runtime's response stream fails under the writer.
        close: () => responseStream.destroy(),
      };
      open.push(connection);
      return connection;
    },
    async close() {
      for (const connection of open) connection.close();
      await Promise.all(open.map((c) => c.ended));
      await testTable.drop();
    },
  };
}

/** Both runtimes, for `describe.each`. */
export const streamRuntimes = [
  { runtime: 'local', start: startLocalDriver },
  { runtime: 'lambda', start: startLambdaDriver },
] as const;
