import type { APIGatewayProxyEventV2, DynamoDBRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApiHandler } from '../../functions/api.ts';
import { createStreamHandler } from '../../functions/stream.ts';
import { generateApiKey } from '../../lib/auth/api-key.ts';
import { createPowertoolsLogger } from '../../lib/cloud/edge/lambda-edge.ts';
import { createCloudApp } from '../../lib/cloud/http-composition.ts';
import { loadConfig } from '../../lib/platform/config.ts';
import type { Change } from '../../lib/store/change-feed.ts';
import { createTestTable, type TestTable } from '../support/dynamodb-local.ts';
import { apiEvent } from '../support/lambda-context.ts';
import { lambdaContext } from './support.ts';

function streamRecord(sequence: string, sk: string): DynamoDBRecord {
  return {
    eventID: `event-${sequence}`,
    eventName: 'INSERT',
    eventSource: 'aws:dynamodb',
    dynamodb: {
      SequenceNumber: sequence,
      Keys: { pk: { S: 'TENANT#t' }, sk: { S: sk } },
      NewImage: { pk: { S: 'TENANT#t' }, sk: { S: sk }, entity: { S: 'purge_job' } },
    },
  };
}

describe('the Lambda edges', () => {
  let testTable: TestTable;
  const lines: string[] = [];
  let cloud: ReturnType<typeof createCloudApp>;

  beforeAll(async () => {
    testTable = await createTestTable(inject('dynamodbEndpoint'));
    cloud = createCloudApp(
      loadConfig('cloud', { VIGIL_TABLE_NAME: testTable.tableName, VIGIL_LOG_LEVEL: 'info' }),
      { dynamodb: testTable.client, logWrite: (line) => lines.push(line) },
    );
  });

  afterAll(async () => {
    await testTable.drop();
  });

  it('writes JSON log lines carrying the Lambda request id and the API Gateway request id', async () => {
    const { rawKey } = await cloud.app.tenants.createTenant({ name: 'Acme', email: 'ops@acme.test' });
    lines.length = 0;
    const handler = createApiHandler(cloud);
    const context = lambdaContext('api');

    const result = await handler(
      apiEvent('GET', '/v1/me', { headers: { authorization: `Bearer ${rawKey}` } }),
      context,
    );

    expect(result.statusCode).toBe(200);
    const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const request = logged.find((entry) => entry.message === 'request');
    expect(request).toMatchObject({
      level: 'INFO',
      function_name: 'api',
      function_request_id: context.awsRequestId,
      correlation_id: 'apigw-request-1',
      request_id: 'apigw-request-1',
      status: 200,
    });
    expect(lines.join('\n')).not.toContain(rawKey);
  });

  it('answers a malformed event with the generic 500 and logs the error', async () => {
    lines.length = 0;
    const handler = createApiHandler(cloud);
    const event = { version: '2.0', rawPath: '/v1/me', headers: {} } as unknown as APIGatewayProxyEventV2;

    const result = await handler(event, lambdaContext('api'));

    expect(result.statusCode).toBe(500);
    expect(JSON.parse(String(result.body))).toEqual({ error: 'internal error', code: 'INTERNAL' });
    expect(lines.some((line) => line.includes('unhandled error'))).toBe(true);
  });

  it('answers a plain Error thrown under a route with the generic 500, leaking nothing', async () => {
    // A table that does not exist: every read throws the SDK's ResourceNotFoundException.
    const broken = createCloudApp(
      loadConfig('cloud', { VIGIL_TABLE_NAME: 'no-such-table', VIGIL_LOG_LEVEL: 'error' }),
      {
        dynamodb: testTable.client,
        logWrite: (line) => lines.push(line),
      },
    );
    lines.length = 0;
    const handler = createApiHandler(broken);

    const result = await handler(
      apiEvent('GET', '/v1/me', { headers: { authorization: `Bearer ${generateApiKey()}` } }),
      lambdaContext('api'),
    );

    expect(result.statusCode).toBe(500);
    expect(result.body).toBe('{"error":"internal error","code":"INTERNAL"}');
    expect(lines.some((line) => line.includes('ResourceNotFound') || line.includes('non-existent'))).toBe(
      true,
    );
  });

  it('reports the stream records whose consumer threw as batch item failures, and only those', async () => {
    const seen: string[] = [];
    const consumer = async (changes: Change[]) => {
      for (const change of changes) {
        if (change.keys.sk === 'PURGE#bad') throw new Error('consumer failed');
        seen.push(change.keys.sk);
      }
    };
    const handler = createStreamHandler({
      consumers: [consumer],
      powertools: createPowertoolsLogger({ level: 'silent' }),
    });

    const result = await handler(
      {
        Records: [streamRecord('1', 'PURGE#a'), streamRecord('2', 'PURGE#bad'), streamRecord('3', 'PURGE#c')],
      },
      lambdaContext('stream'),
    );

    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: '2' }] });
    expect(seen).toEqual(['PURGE#a', 'PURGE#c']);
  });
});
