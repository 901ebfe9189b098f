import type { Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApiHandler, createCloudApp, createPingHandler } from '../../lib/cloud/http-composition.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { loadConfig } from '../../lib/platform/config.ts';
import { createTestTable } from '../support/dynamodb-local.ts';
import { apiEvent } from '../support/lambda-context.ts';

/**
 * The ping function (lib/cloud/http-composition.ts createPingHandler, functions/ping.ts): the Pinging
 * API behind its own function URL, over DynamoDB Local. A ping through it is recorded as through the
 * API, under the same limits; any other path is 404 before routing, a valid API key's included;
 * the API shows ping URLs on VIGIL_PING_URL (docs/aws.md "Ping URLs").
 */

const PING_URL = 'https://abcdefghijklmnop.lambda-url.us-east-1.on.aws/';
const clock = createFakeClock(Date.parse('2026-01-01T00:00:00.000Z'));
const context = { awsRequestId: 'test', functionName: 'ping' } as unknown as Context;
let counter = 0;

type Handler = ReturnType<typeof createPingHandler>;
// biome-ignore lint/suspicious/noExplicitAny: test responses are inspected freely
type Answer = { status: number; text: string; headers: Record<string, unknown>; body: any };

async function send(
  handler: Handler,
  method: string,
  path: string,
  key?: string,
  body?: unknown,
): Promise<Answer> {
  counter += 1;
  const encoded = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  const event = apiEvent(method, path, {
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(encoded ? { 'content-type': 'application/json' } : {}),
    },
    ...(encoded ? { body: encoded } : {}),
    sourceIp: '198.51.100.9',
    userAgent: 'curl',
    requestId: `pf-${counter}`,
    nowMs: clock.now(),
  });
  const res = await handler(event, context);
  const text = res.body ?? '';
  return {
    status: res.statusCode ?? 0,
    text,
    headers: res.headers ?? {},
    body: text.startsWith('{') ? JSON.parse(text) : undefined,
  };
}

describe('the ping function over DynamoDB Local', () => {
  let drop: () => Promise<void>;
  let ping: Handler;
  let api: Handler;
  let key: string;
  let checkId: string;
  let token: string;
  let pingUrl: string;

  beforeAll(async () => {
    const testTable = await createTestTable(inject('dynamodbEndpoint'));
    drop = testTable.drop;
    const config = loadConfig('cloud', {
      VIGIL_TABLE_NAME: testTable.tableName,
      VIGIL_LOG_LEVEL: 'silent',
      VIGIL_PING_RATE_LIMIT_BURST: '3',
      VIGIL_PING_URL: PING_URL,
    });
    const cloud = createCloudApp(config, { dynamodb: testTable.client, clock });
    ping = createPingHandler(cloud);
    api = createApiHandler(cloud);
    key = (await cloud.app.tenants.createTenant({ name: 'A', email: 'a@example.com' })).rawKey;
    await send(api, 'POST', '/v1/blueprints', key, { slug: 'cron', name: 'Cron job' });
    const entity = (
      await send(api, 'POST', '/v1/blueprints/cron/entities', key, { slug: 'backup', name: 'Backup' })
    ).body;
    checkId = (await send(api, 'POST', '/v1/checks', key, { entity_id: entity.id, check_type: 'push' })).body
      .id;
    const created = (await send(api, 'POST', `/v1/checks/${checkId}/push-tokens`, key)).body;
    token = created.token;
    pingUrl = created.ping_url;
  });
  afterAll(async () => {
    await drop?.();
  });

  it("shows a new token's ping URL, and the slug URLs' pattern, on the ping function's URL (VIGIL_PING_URL)", async () => {
    expect(pingUrl).toBe(`https://abcdefghijklmnop.lambda-url.us-east-1.on.aws/ping/${token}`);
    const pingKey = (await send(api, 'POST', '/v1/settings/ping-key', key)).body;
    expect(pingKey.slug_url_pattern).toBe(
      `https://abcdefghijklmnop.lambda-url.us-east-1.on.aws/ping/${pingKey.ping_key}/<slug>`,
    );
  });

  it('records a ping through it as through the API: 200 OK, a success result', async () => {
    const res = await send(ping, 'GET', `/ping/${token}`);
    const fail = await send(ping, 'POST', `/ping/${token}/fail`);

    expect([res.status, res.text]).toEqual([200, 'OK']);
    expect(fail.status).toBe(200);
    const results = (await send(api, 'GET', `/v1/checks/${checkId}/results`, key)).body.results;
    expect(results.map((r: { success: boolean }) => r.success)).toEqual([false, true]);
  });

  it("keeps the check's ping limit: 429 with Retry-After past its burst", async () => {
    clock.set(clock.now() + 3_600_000);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await send(ping, 'GET', `/ping/${token}`)).status);
    const over = await send(ping, 'GET', `/ping/${token}`);

    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(over.text).toBe('too many pings for this check');
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('answers 404 to anything but a ping, a valid API key and a known route included', async () => {
    for (const [method, path] of [
      ['GET', '/v1/checks'],
      ['GET', '/healthz'],
      ['GET', '/v1/openapi.json'],
      ['GET', '/pingx'],
      ['POST', `/v1/checks/${checkId}/results`],
    ] as const) {
      const res = await send(ping, method, path, key, method === 'POST' ? { success: true } : undefined);
      expect([path, res.status, res.text]).toEqual([path, 404, 'not found']);
    }
    // Through the API the same key reads its checks.
    expect((await send(api, 'GET', '/v1/checks', key)).status).toBe(200);
  });
});
