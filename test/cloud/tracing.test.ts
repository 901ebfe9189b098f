import AWSXRay from 'aws-xray-sdk-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { createApiHandler } from '../../functions/api.ts';
import { createFunctionTracer } from '../../lib/cloud/edge/tracing.ts';
import { createCloudApp } from '../../lib/cloud/http-composition.ts';
import { loadConfig } from '../../lib/platform/config.ts';
import { createTestTable, type TestTable } from '../support/dynamodb-local.ts';
import { apiEvent, lambdaContext } from '../support/lambda-context.ts';

/**
 * The api function's Tracer, enabled as in Lambda (AWS_EXECUTION_ENV), under a facade segment of
 * the X-Ray SDK's own, as the Lambda runtime opens one per invocation. Nothing is sent: the facade
 * is never closed, so no segment is flushed to a daemon.
 */

/** A subsegment's annotations, as it would send them (its JSON document). */
function annotationsOf(segment: AWSXRay.Subsegment | undefined): Record<string, unknown> | undefined {
  return segment
    ? (JSON.parse(JSON.stringify(segment)) as { annotations?: Record<string, unknown> }).annotations
    : undefined;
}

/** Runs `invoke` with `facade` as the current segment, as the Lambda runtime does for each invocation. */
function underFacade<T>(facade: AWSXRay.Segment, invoke: () => Promise<T>): Promise<T> {
  return AWSXRay.getNamespace().runAndReturn(() => {
    AWSXRay.setSegment(facade);
    return invoke();
  });
}

describe('the api function traced', () => {
  let testTable: TestTable;

  beforeAll(async () => {
    testTable = await createTestTable(inject('dynamodbEndpoint'));
  });

  afterEach(() => {
    vi.unstubAllEnvs();
  });

  afterAll(async () => {
    await testTable.drop();
  });

  function tracedApi() {
    vi.stubEnv('AWS_EXECUTION_ENV', 'AWS_Lambda_nodejs24.x');
    vi.stubEnv('POWERTOOLS_TRACE_ENABLED', 'true');
    const tracer = createFunctionTracer('api');
    const cloud = createCloudApp(
      loadConfig('cloud', { VIGIL_TABLE_NAME: testTable.tableName, VIGIL_LOG_LEVEL: 'silent' }),
      { dynamodb: testTable.client },
      { tracer },
    );
    return { tracer, cloud, handler: createApiHandler({ ...cloud, tracer }) };
  }

  it('opens a handler subsegment per invocation, annotated with the route, method and status code', async () => {
    const { tracer, cloud, handler } = tracedApi();
    const { rawKey } = await cloud.app.tenants.createTenant({ name: 'Acme', email: 'ops@acme.test' });
    const facade = new AWSXRay.Segment('api');

    const result = await underFacade(facade, () =>
      handler(
        apiEvent('GET', '/v1/me', { headers: { authorization: `Bearer ${rawKey}` } }),
        lambdaContext('api'),
      ),
    );

    expect(tracer.isTracingEnabled()).toBe(true);
    expect(result.statusCode).toBe(200);
    const [handlerSegment] = facade.subsegments ?? [];
    expect(annotationsOf(handlerSegment)).toMatchObject({
      Service: 'api',
      route: 'GET /v1/me',
      method: 'GET',
      status: 200,
    });
    expect(handlerSegment?.isClosed()).toBe(true);
    // The response (a created key, a channel's settings) is never kept as metadata.
    expect(JSON.stringify(handlerSegment)).not.toContain(rawKey);
  });

  it('traces the DynamoDB calls of the invocation as subsegments of it', async () => {
    const { handler } = tracedApi();
    const facade = new AWSXRay.Segment('api');

    await underFacade(facade, () =>
      handler(apiEvent('GET', '/v1/me', { headers: { authorization: 'Bearer nope' } }), lambdaContext('api')),
    );

    const names = (facade.subsegments?.[0]?.subsegments ?? []).map((s) => s.name);
    expect(names).toContain('DynamoDB');
  });

  it('annotates an unmatched path and its status', async () => {
    const { handler } = tracedApi();
    const facade = new AWSXRay.Segment('api');

    const result = await underFacade(facade, () =>
      handler(apiEvent('GET', '/v1/nowhere'), lambdaContext('api')),
    );

    expect(result.statusCode).toBe(404);
    expect(annotationsOf(facade.subsegments?.[0])).toMatchObject({ route: 'unmatched', status: 404 });
  });

  it('is off outside Lambda: no segment is needed and nothing is annotated', async () => {
    const tracer = createFunctionTracer('api');
    const cloud = createCloudApp(
      loadConfig('cloud', { VIGIL_TABLE_NAME: testTable.tableName, VIGIL_LOG_LEVEL: 'silent' }),
      { dynamodb: testTable.client },
      { tracer },
    );

    const result = await createApiHandler({ ...cloud, tracer })(
      apiEvent('GET', '/v1/nowhere'),
      lambdaContext('api'),
    );

    expect(tracer.isTracingEnabled()).toBe(false);
    expect(result.statusCode).toBe(404);
  });
});
