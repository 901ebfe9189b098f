import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { createConfigHandler } from '../../functions/config.ts';
import { createCloudApp } from '../../lib/cloud/http-composition.ts';
import { resolveEnvReferences } from '../../lib/config-doc/secrets.ts';
import { loadConfig } from '../../lib/platform/config.ts';
import {
  FIXTURE_ENV,
  FIXTURE_RESOLVE,
  FIXTURE_RUNTIME_ENV,
  FIXTURES,
  fixtureDocument,
} from '../config-doc/fixtures/index.ts';
import { fakeStreamingRuntime, functionUrlEvent } from '../status/stream-drivers.ts';
import { createTestTable, type TestTable } from '../support/dynamodb-local.ts';
import { lambdaContext } from './support.ts';

// functions/config.ts builds its module-scope handler from the Lambda runtime's global.
vi.hoisted(() => {
  Object.assign(globalThis, {
    awslambda: {
      streamifyResponse: (handler: unknown) => handler,
      HttpResponseStream: { from: (stream: unknown) => stream },
    },
  });
});

/**
 * Rate limits off; the fixture's webhook channel points at the loopback address, which egress must
 * allow; the fixture page's custom domain on the list.
 */
const TEST_ENV = {
  ...FIXTURE_RUNTIME_ENV,
  VIGIL_LOG_LEVEL: 'debug',
  VIGIL_RATE_LIMIT_RPS: '0',
  VIGIL_AUTH_FAILURE_LIMIT: '0',
  VIGIL_EGRESS_ALLOW: '127.0.0.1/32',
};
const PRELUDE_END = Buffer.alloc(8);
const OBJECTS = FIXTURES.reduce((n, f) => n + f.docs.length, 0);

let testTable: TestTable;
let handler: ReturnType<typeof createConfigHandler>;
let cloud: ReturnType<typeof createCloudApp>;

beforeAll(async () => {
  testTable = await createTestTable(inject('dynamodbEndpoint'));
  cloud = createCloudApp(loadConfig('cloud', { ...TEST_ENV, VIGIL_TABLE_NAME: testTable.tableName }), {
    dynamodb: testTable.client,
    egress: { resolve: FIXTURE_RESOLVE },
  });
  handler = createConfigHandler({ ...cloud, runtime: fakeStreamingRuntime() });
}, 60_000);

afterAll(async () => {
  await testTable?.drop();
});

interface Invocation {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The body as the function wrote it to its response stream, write by write (a function URL relays each as it comes). */
  writes: string[];
}

/** One invocation of the configuration function through its function URL: a payload v2 event, the response stream read back. */
async function invoke(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<Invocation> {
  const [rawPath = path, rawQuery = ''] = path.split('?');
  const event = functionUrlEvent(rawPath, { 'content-type': 'application/json', ...headers });
  event.rawQueryString = rawQuery;
  event.requestContext.http.method = method;
  if (body !== undefined) {
    event.body = Buffer.from(JSON.stringify(body)).toString('base64');
    event.isBase64Encoded = true;
  }
  const responseStream = new PassThrough();
  const chunks: Buffer[] = [];
  responseStream.on('data', (chunk: Buffer) => chunks.push(chunk));
  await handler(event, responseStream, lambdaContext('config'));
  await new Promise<void>((resolve) => setImmediate(resolve));
  // The runtime's HttpResponseStream.from writes the prelude and its eight NULs in one write.
  const [head = Buffer.alloc(0), ...rest] = chunks;
  const end = head.indexOf(PRELUDE_END);
  expect(end, 'a prelude before the body').toBeGreaterThan(0);
  const prelude = JSON.parse(head.subarray(0, end).toString()) as {
    statusCode: number;
    headers: Record<string, string>;
  };
  const writes = [head.subarray(end + PRELUDE_END.length), ...rest]
    .map((chunk) => chunk.toString())
    .filter((text) => text.length > 0);
  return { status: prelude.statusCode, headers: prelude.headers, body: writes.join(''), writes };
}

const document = () => resolveEnvReferences(fixtureDocument(), FIXTURE_ENV).value;
const lines = (text: string) =>
  text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('the configuration function (functions/config.ts) behind its function URL', () => {
  it('streams an apply with Accept: application/x-ndjson: one line per object as it lands, then the summary', async () => {
    const { rawKey } = await cloud.app.tenants.createTenant({
      name: 'Config stream',
      email: 'ops@stream.test',
    });
    const auth = { authorization: `Bearer ${rawKey}` };

    const res = await invoke(
      'POST',
      '/v1/config/apply',
      { ...auth, accept: 'application/x-ndjson' },
      document(),
    );

    expect(res.status, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/x-ndjson/);
    const answer = lines(res.body);
    expect(answer).toHaveLength(OBJECTS + 1);
    expect(answer.slice(0, -1).every((line) => line.op === 'create' && line.status === 'applied')).toBe(true);
    expect(new Set(answer.slice(0, -1).map((line) => `${line.kind} ${line.id}`)).size).toBe(OBJECTS);
    expect(answer.at(-1)).toEqual({
      applied: true,
      summary: { created: OBJECTS, updated: 0, deleted: 0, failed: 0, unchanged: 0 },
      unmapped: [],
    });
    // The lines left the function as the objects landed, not as one answer once the apply had
    // ended: the summary came in a write of its own, after the writes of the objects' lines.
    expect(res.writes.length).toBeGreaterThan(1);
    expect(res.writes.at(-1)).toBe(`${JSON.stringify(answer.at(-1))}\n`);
    expect(res.writes.slice(0, -1).join('')).not.toContain('"summary"');

    // Through the same function, a plan of the same document finds nothing to change.
    const plan = await invoke('POST', '/v1/config/plan', auth, document());
    expect(plan.status, plan.body).toBe(200);
    expect(JSON.parse(plan.body)).toEqual({ changes: [], unmapped: [], warnings: [] });
  }, 60_000);

  it('answers an apply that does not parse with its own status before any line, and refuses a missing key', async () => {
    const { rawKey } = await cloud.app.tenants.createTenant({ name: 'Config bad', email: 'ops@bad.test' });
    const bad = await invoke(
      'POST',
      '/v1/config/apply',
      { authorization: `Bearer ${rawKey}`, accept: 'application/x-ndjson' },
      { apiVersion: 'vigil/v1', kind: 'Config', monitors: [] },
    );
    expect(bad.status, bad.body).toBe(400);
    expect(JSON.parse(bad.body)).toMatchObject({ code: 'VALIDATION_ERROR' });

    const anonymous = await invoke(
      'POST',
      '/v1/config/apply',
      { accept: 'application/x-ndjson' },
      document(),
    );
    expect(anonymous.status).toBe(401);
  }, 60_000);
});
