import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApiHandler } from '../../functions/api.ts';
import { createCloudApp } from '../../lib/cloud/http-composition.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { loadConfig } from '../../lib/platform/config.ts';
import { createTestTable } from '../support/dynamodb-local.ts';
import { apiEvent } from '../support/lambda-context.ts';

/**
 * A ping URL's limits across two api Lambda instances on one table (docs/heartbeats.md "Limits"):
 * the check's bucket is each instance's, in its memory, and pings spend nothing of the tenant's
 * shared ceiling, so a ping writes no rate-limit item and a tenant's API calls are not refused for
 * its pings.
 */

const clock = createFakeClock(Date.parse('2026-01-01T00:00:00.000Z'));
const context = { awsRequestId: 'test', functionName: 'api' } as unknown as Context;
let counter = 0;

function event(method: string, path: string, key?: string, body?: unknown): APIGatewayProxyEventV2 {
  counter += 1;
  const encoded = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  return apiEvent(method, path, {
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(encoded ? { 'content-type': 'application/json' } : {}),
    },
    ...(encoded ? { body: encoded } : {}),
    sourceIp: '198.51.100.7',
    userAgent: 'curl',
    requestId: `rlp-${counter}`,
    nowMs: clock.now(),
  });
}

type Send = (
  method: string,
  path: string,
  key?: string,
  body?: unknown,
  // biome-ignore lint/suspicious/noExplicitAny: test responses are inspected freely
) => Promise<{ status: number; text: string; body: any }>;

describe('ping URL limits across two api Lambda instances on one DynamoDB Local table', () => {
  let drop: () => Promise<void>;
  let one: Send;
  let two: Send;
  let tokens: string[];
  let key: string;

  beforeAll(async () => {
    const testTable = await createTestTable(inject('dynamodbEndpoint'));
    drop = testTable.drop;
    const env = { VIGIL_TABLE_NAME: testTable.tableName, VIGIL_LOG_LEVEL: 'silent' };
    // A check's own bucket: 5 at once; the tenant's ceiling over all its keys: 8 at once.
    const limited = loadConfig('cloud', {
      ...env,
      VIGIL_RATE_LIMIT_RPS: '0.01',
      VIGIL_RATE_LIMIT_BURST: '5',
      VIGIL_RATE_LIMIT_TENANT_RPS: '0.01',
      VIGIL_RATE_LIMIT_TENANT_BURST: '8',
    });
    const sender = (config: typeof limited): Send => {
      const handler = createApiHandler(createCloudApp(config, { dynamodb: testTable.client, clock }));
      return async (method, path, key, body) => {
        const res = await handler(event(method, path, key, body), context);
        const text = res.body ?? '';
        // The API answers JSON; ping URLs answer text (Healthchecks' `OK`).
        return {
          status: res.statusCode ?? 0,
          text,
          body: text.startsWith('{') ? JSON.parse(text) : undefined,
        };
      };
    };
    [one, two] = [sender(limited), sender(limited)];
    // Setup through a third instance without limits (its requests would spend the tenant's).
    const setupConfig = loadConfig('cloud', { ...env, VIGIL_RATE_LIMIT_RPS: '0' });
    const setup = sender(setupConfig);
    const cloud = createCloudApp(setupConfig, { dynamodb: testTable.client, clock });
    key = (await cloud.app.tenants.createTenant({ name: 'A', email: 'a@example.com' })).rawKey;
    await setup('POST', '/v1/blueprints', key, { slug: 'cron', name: 'Cron job' });
    const entity = (
      await setup('POST', '/v1/blueprints/cron/entities', key, { slug: 'backup', name: 'Backup' })
    ).body;
    const check = (await setup('POST', '/v1/checks', key, { entity_id: entity.id, check_type: 'push' })).body;
    tokens = [];
    for (let i = 0; i < 2; i += 1)
      tokens.push((await setup('POST', `/v1/checks/${check.id}/push-tokens`, key)).body.token);
  });
  afterAll(async () => {
    await drop?.();
  });

  it("keeps a check's bucket per instance, all its tokens together, and spends nothing of the tenant's ceiling", async () => {
    const [token, other] = tokens;
    const statuses: number[] = [];
    // Alternately on both instances: each admits the check's 5 (its two tokens together), then refuses.
    for (let i = 0; i < 14; i += 1)
      statuses.push((await (i % 2 === 0 ? one : two)('GET', `/ping/${i < 7 ? token : other}`)).status);
    // The tenant's ceiling (8) is whole for its key: the 10 pings took none of it.
    const keyed: number[] = [];
    for (let i = 0; i < 5; i += 1) keyed.push((await one('GET', '/v1/checks', key)).status);

    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429, 429, 429]);
    expect(keyed).toEqual(Array(5).fill(200));
  });
});
