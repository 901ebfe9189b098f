import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApiHandler } from '../../functions/api.ts';
import { generateApiKey } from '../../lib/auth/api-key.ts';
import { createCloudApp } from '../../lib/cloud/http-composition.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { loadConfig } from '../../lib/platform/config.ts';
import { createTestTable } from '../support/dynamodb-local.ts';

// Two api Lambda instances (two compositions, as two containers would build them) on one table.
const clock = createFakeClock(Date.parse('2026-01-01T00:00:00.000Z'));
const context = { awsRequestId: 'test', functionName: 'api' } as unknown as Context;
let counter = 0;

function event(key: string | undefined, sourceIp: string): APIGatewayProxyEventV2 {
  counter += 1;
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: '/v1/me',
    rawQueryString: '',
    headers: key ? { authorization: `Bearer ${key}` } : {},
    requestContext: {
      accountId: '123456789012',
      apiId: 'api',
      domainName: 'api.example.com',
      domainPrefix: 'api',
      http: { method: 'GET', path: '/v1/me', protocol: 'HTTP/1.1', sourceIp, userAgent: 'vitest' },
      requestId: `rl-${counter}`,
      routeKey: '$default',
      stage: '$default',
      time: new Date(clock.now()).toISOString(),
      timeEpoch: clock.now(),
    },
    isBase64Encoded: false,
  };
}

describe('rate limits across two api Lambda instances on one DynamoDB Local table', () => {
  let drop: () => Promise<void>;
  let instances: ((key: string | undefined, sourceIp?: string) => Promise<number>)[];
  let key: string;
  let otherKey: string;

  beforeAll(async () => {
    const testTable = await createTestTable(inject('dynamodbEndpoint'));
    drop = testTable.drop;
    const config = loadConfig('cloud', {
      VIGIL_TABLE_NAME: testTable.tableName,
      VIGIL_LOG_LEVEL: 'silent',
      VIGIL_RATE_LIMIT_RPS: '1',
      VIGIL_RATE_LIMIT_BURST: '5',
      VIGIL_AUTH_FAILURE_LIMIT: '3',
      VIGIL_AUTH_FAILURE_ADDRESS_LIMIT: '3',
    });
    const clouds = [0, 1].map(() => createCloudApp(config, { dynamodb: testTable.client, clock }));
    instances = clouds.map((cloud) => {
      const handler = createApiHandler(cloud);
      return async (k, sourceIp = '198.51.100.7') =>
        (await handler(event(k, sourceIp), context)).statusCode ?? 0;
    });
    key = (await clouds[0]?.app.tenants.createTenant({ name: 'A', email: 'a@example.com' }))?.rawKey ?? '';
    otherKey =
      (await clouds[1]?.app.tenants.createTenant({ name: 'B', email: 'b@example.com' }))?.rawKey ?? '';
  });
  afterAll(async () => {
    await drop();
  });

  it('holds one key to its burst across both instances', async () => {
    const [one, two] = instances;
    if (!one || !two) throw new Error('two instances expected');

    const statuses: number[] = [];
    for (let i = 0; i < 8; i += 1) statuses.push(await (i % 2 === 0 ? one : two)(key));
    const other = await two(otherKey);

    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    expect(other).toBe(200);
  });

  it('counts failed authentications of one address across both instances, and only that address', async () => {
    const [one, two] = instances;
    if (!one || !two) throw new Error('two instances expected');
    clock.advance(60_000);

    const wrong = [
      await one(generateApiKey(), '203.0.113.50'),
      await two(generateApiKey(), '203.0.113.50'),
      await one(generateApiKey(), '203.0.113.50'),
      await two(generateApiKey(), '203.0.113.50'),
    ];
    const rightFromThere = await one(otherKey, '203.0.113.50');
    const rightFromElsewhere = await two(otherKey, '203.0.113.51');

    expect(wrong).toEqual([401, 401, 401, 429]);
    expect(rightFromThere).toBe(429);
    expect(rightFromElsewhere).toBe(200);
  });
});
