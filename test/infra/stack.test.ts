import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiThrottle, DEFAULT_API_THROTTLE } from '../../infra/api.ts';
import { VigilStack } from '../../infra/vigil-stack.ts';
import { createTableDefinition } from '../../lib/dynamodb/dynamodb-table.ts';
import { allowStatements, only, synthTemplate } from './synth.ts';

let template: Template;
let cleanup: () => void;
let tableId: string;

/** The only resource of a type in the template (optionally: whose logical id starts with `prefix`). */
function single(type: string, prefix = '') {
  return only(template, type, prefix);
}

const API = 'ApiHandler';

beforeAll(() => {
  ({ template, cleanup } = synthTemplate());
  [tableId] = single('AWS::DynamoDB::Table');
}, 120_000);

afterAll(() => cleanup());

describe('table', () => {
  it('keys items by pk and sk, on demand, with streams, TTL and point-in-time recovery', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      BillingMode: 'PAY_PER_REQUEST',
      StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' },
      TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: true },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
    });
  });

  it('declares every key attribute as a string', () => {
    const [, table] = single('AWS::DynamoDB::Table');
    const names = ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk'];
    expect(table.Properties.AttributeDefinitions).toEqual(
      expect.arrayContaining(names.map((AttributeName) => ({ AttributeName, AttributeType: 'S' }))),
    );
    expect(table.Properties.AttributeDefinitions).toHaveLength(names.length);
  });

  it('has gsi1 and gsi2, each keyed by its own pk/sk pair and projecting all attributes', () => {
    const [, table] = single('AWS::DynamoDB::Table');
    expect(table.Properties.GlobalSecondaryIndexes).toEqual(
      ['gsi1', 'gsi2'].map((name) => ({
        IndexName: name,
        KeySchema: [
          { AttributeName: `${name}pk`, KeyType: 'HASH' },
          { AttributeName: `${name}sk`, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
    );
  });

  it('matches the definition the DynamoDB engine creates its tables from', () => {
    const [, table] = single('AWS::DynamoDB::Table');
    const definition = createTableDefinition('vigil');
    const byName = (a: { AttributeName?: string }, b: { AttributeName?: string }) =>
      String(a.AttributeName).localeCompare(String(b.AttributeName));
    const attributes = table.Properties.AttributeDefinitions as { AttributeName?: string }[];
    expect([...attributes].sort(byName)).toEqual([...(definition.AttributeDefinitions ?? [])].sort(byName));
    expect(table.Properties).toMatchObject({
      KeySchema: definition.KeySchema,
      GlobalSecondaryIndexes: definition.GlobalSecondaryIndexes,
      BillingMode: definition.BillingMode,
      StreamSpecification: { StreamViewType: definition.StreamSpecification?.StreamViewType },
    });
  });

  it('survives stack deletion and replacement', () => {
    template.hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
  });
});

describe('api function', () => {
  it('runs functions/api.ts as an ESM bundle on arm64 with a current Node runtime', () => {
    const [, fn] = single('AWS::Lambda::Function', `${API}Function`);
    expect(fn.Properties).toMatchObject({
      Handler: 'index.handler',
      Architectures: ['arm64'],
      MemorySize: 512,
      Timeout: 29,
    });
    expect(fn.Properties.Runtime).toMatch(/^nodejs(2[2-9]|[3-9]\d)\.x$/);
  });

  it('gets the table name, due shards, log level, source maps and the notify, action and probe queues from its environment', () => {
    const [, fn] = single('AWS::Lambda::Function', `${API}Function`);
    expect(fn.Properties.Environment).toEqual({
      Variables: {
        VIGIL_TABLE_NAME: { Ref: tableId },
        VIGIL_DUE_SHARDS: '4',
        VIGIL_LOG_LEVEL: 'info',
        NODE_OPTIONS: '--enable-source-maps',
        VIGIL_NOTIFY_QUEUE_URL: { Ref: expect.stringMatching(/^NotifyQueue/) },
        VIGIL_ACTION_QUEUE_URL: { Ref: expect.stringMatching(/^ActionsQueue/) },
        // First probes of the checks it writes and manual runs of located checks.
        VIGIL_PROBE_QUEUE_URL: { Ref: expect.stringMatching(/^ChecksProbeQueue/) },
        // The artifact route reads browser checks' screenshots there (infra/artifacts.ts).
        VIGIL_ARTIFACT_BUCKET: { Ref: expect.stringMatching(/^ArtifactsBucket/) },
        // A browser check's draft runs in the draft browser function (infra/browser.ts).
        VIGIL_DRAFT_BROWSER_FUNCTION: { Ref: expect.stringMatching(/^ChecksBrowserDraft/) },
        // The ping URLs it shows are on the ping function's URL (infra/ping.ts).
        VIGIL_PING_URL: {
          'Fn::GetAtt': [expect.stringMatching(/^PingHandlerFunctionFunctionUrl/), 'FunctionUrl'],
        },
        // A dynamic reference to the generated secret, resolved at deploy time (console.test.ts).
        VIGIL_EDGE_SECRET: {
          'Fn::Join': [
            '',
            [
              '{{resolve:secretsmanager:',
              { Ref: expect.stringMatching(/^EdgeSecret/) },
              ':SecretString:::}}',
            ],
          ],
        },
      },
    });
  });

  it('logs to its own log group with a retention period', () => {
    const [logGroupId, logGroup] = single('AWS::Logs::LogGroup', `${API}Logs`);
    expect(logGroup.Properties.RetentionInDays).toEqual(expect.any(Number));
    const [, fn] = single('AWS::Lambda::Function', `${API}Function`);
    expect(fn.Properties.LoggingConfig).toMatchObject({ LogGroup: { Ref: logGroupId } });
  });

  it('may read and write the table and both of its indexes', () => {
    const tableArn = { 'Fn::GetAtt': [tableId, 'Arn'] };
    const onTable = allowStatements(template, API).filter(
      (st) => JSON.stringify(st.Resource) === JSON.stringify(tableArn),
    );
    const actions = onTable.flatMap((st) => st.Action);
    expect(actions).toEqual(
      expect.arrayContaining(
        ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem', 'ConditionCheckItem'].map(
          (action) => `dynamodb:${action}`,
        ),
      ),
    );
  });
});

describe('tracing', () => {
  it('traces the HTTP functions (api, ping, mcp, status-stream, config) with X-Ray, and no other function', () => {
    const functions = Object.entries(template.findResources('AWS::Lambda::Function'));
    const traced = functions
      .filter(([, fn]) => fn.Properties.TracingConfig?.Mode === 'Active')
      .map(([id]) => id.replace(/Function[0-9A-F]{8}$/, ''));

    expect(functions.length).toBeGreaterThan(5);
    expect(traced.sort()).toEqual([API, 'ConfigHandler', 'McpHandler', 'PingHandler', 'StatusStreamHandler']);
  });

  it.each([API, 'McpHandler', 'StatusStreamHandler', 'ConfigHandler'])(
    'lets %s write its segments to X-Ray',
    (prefix) => {
      const actions = allowStatements(template, prefix).flatMap((st) => st.Action);
      expect(actions).toEqual(expect.arrayContaining(['xray:PutTraceSegments', 'xray:PutTelemetryRecords']));
    },
  );
});

describe('http api', () => {
  it('is an HTTP API with an auto-deployed default stage', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', { ProtocolType: 'HTTP' });
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', { StageName: '$default', AutoDeploy: true });
  });

  it('proxies to the api function with payload format 2.0', () => {
    const [fnId] = single('AWS::Lambda::Function', `${API}Function`);
    template.hasResourceProperties('AWS::ApiGatewayV2::Integration', {
      IntegrationType: 'AWS_PROXY',
      PayloadFormatVersion: '2.0',
      IntegrationUri: { 'Fn::GetAtt': [fnId, 'Arn'] },
    });
  });

  it('sends every method and path to that integration: the $default route and the ping URLs by name', () => {
    const [integrationId] = single('AWS::ApiGatewayV2::Integration');
    const routes = Object.values(template.findResources('AWS::ApiGatewayV2::Route'));
    expect(routes.map((route) => route.Properties.RouteKey).sort()).toEqual([
      '$default',
      'GET /ping/{key}/{slug}/{suffix}',
      'GET /ping/{token}',
      'GET /ping/{token}/{suffix}',
      'HEAD /ping/{key}/{slug}/{suffix}',
      'HEAD /ping/{token}',
      'HEAD /ping/{token}/{suffix}',
      'POST /ping/{key}/{slug}/{suffix}',
      'POST /ping/{token}',
      'POST /ping/{token}/{suffix}',
    ]);
    for (const route of routes) {
      expect(route.Properties.Target).toEqual({
        'Fn::Join': ['', ['integrations/', { Ref: integrationId }]],
      });
      // The token (or ping key) is the ping's credential: API Gateway asks for none of its own.
      expect(route.Properties.AuthorizationType ?? 'NONE').toBe('NONE');
    }
  });

  it('lets API Gateway invoke the function', () => {
    template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      Principal: 'apigateway.amazonaws.com',
    });
  });

  it('outputs the API URL', () => {
    template.hasOutput('ApiUrl', { Value: Match.anyValue() });
  });

  it('throttles every route of the default stage (500 requests per second, bursts of 1,000 by default)', () => {
    const [, stage] = single('AWS::ApiGatewayV2::Stage');
    expect(stage.Properties.DefaultRouteSettings).toEqual({
      ThrottlingRateLimit: DEFAULT_API_THROTTLE.rateLimit,
      ThrottlingBurstLimit: DEFAULT_API_THROTTLE.burstLimit,
    });
  });

  it('keeps the stage HttpApi created before (same logical id), so a deployed stack updates it in place', () => {
    const [stageId] = single('AWS::ApiGatewayV2::Stage');
    expect(stageId).toMatch(/^ApiHttpApiDefaultStage[0-9A-F]{8}$/);
  });

  it('writes a JSON access log line per request to its own log group, kept a month', () => {
    const [logId, log] = single('AWS::Logs::LogGroup', 'ApiAccessLog');
    expect(log.Properties.RetentionInDays).toBe(30);
    const [, stage] = single('AWS::ApiGatewayV2::Stage');
    const settings = stage.Properties.AccessLogSettings as { DestinationArn: unknown; Format: string };
    expect(settings.DestinationArn).toEqual({ 'Fn::GetAtt': [logId, 'Arn'] });
    const format = JSON.parse(settings.Format) as Record<string, string>;
    expect(format).toMatchObject({
      requestId: '$context.requestId',
      ip: '$context.identity.sourceIp',
      routeKey: '$context.routeKey',
      status: '$context.status',
      latency: '$context.responseLatency',
      integrationLatency: '$context.integrationLatency',
    });
    // Keys and tokens travel in headers and query strings, ping tokens in the path: none is logged.
    expect(settings.Format).not.toMatch(/header|querystring|authorization|\$context\.path/i);
  });

  it('takes the throttling from the vigil:apiRateLimit and vigil:apiBurstLimit settings', () => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    const stack = new VigilStack(app, 'Throttled', { settings: { apiRateLimit: '25.5', apiBurstLimit: 40 } });
    const [, stage] = only(Template.fromStack(stack), 'AWS::ApiGatewayV2::Stage');
    expect(stage.Properties.DefaultRouteSettings).toEqual({
      ThrottlingRateLimit: 25.5,
      ThrottlingBurstLimit: 40,
    });
  }, 120_000);

  it('fails the synth on a throttling setting that is no number or out of range, naming it', () => {
    expect(() => apiThrottle({ apiRateLimit: 'fast' })).toThrow(/vigil:apiRateLimit/);
    expect(() => apiThrottle({ apiRateLimit: '0' })).toThrow(/vigil:apiRateLimit/);
    expect(() => apiThrottle({ apiBurstLimit: '2.5' })).toThrow(/vigil:apiBurstLimit/);
    expect(() => apiThrottle({ apiBurstLimit: 100_000 })).toThrow(/vigil:apiBurstLimit/);
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    expect(() => new VigilStack(app, 'Bad', { settings: { apiRateLimit: 'lots' } })).toThrow(
      /invalid deployment settings:\n {2}vigil:apiRateLimit/,
    );
  });
});
