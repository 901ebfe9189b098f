import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CapacitySettings, capacityPlan, FIXED_CONCURRENCY } from '../../infra/capacity.ts';
import { GENERATOR_TABLE_ACTIONS, TABLE_ACTIONS } from '../../infra/table.ts';
import { VigilStack, type VigilStackProps } from '../../infra/vigil-stack.ts';
import { allowStatements, getAtt, lambdaFunction, only, type Resource } from './synth.ts';

/** Issue 36 items 9–12: alarms, isolation and least privilege, capacity by design, the TableName output. */

const root = join(import.meta.dirname, '..', '..');
const dirs: string[] = [];

function synth(props: Omit<VigilStackProps, 'consoleDir'> = {}): Template {
  const outdir = mkdtempSync(join(tmpdir(), 'vigil-ops-'));
  dirs.push(outdir);
  const { context } = JSON.parse(readFileSync(join(root, 'cdk.json'), 'utf8')) as { context: object };
  const app = new App({ outdir, context: { ...context, 'aws:cdk:bundling-stacks': [] } });
  return Template.fromStack(new VigilStack(app, 'Vigil', props));
}

let template: Template;
let tableId: string;
beforeAll(() => {
  template = synth({ settings: { alarmEmail: 'ops@example.com' } });
  [tableId] = only(template, 'AWS::DynamoDB::Table');
}, 120_000);
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const alarms = () => Object.entries(template.findResources('AWS::CloudWatch::Alarm')) as [string, Resource][];
const alarm = (prefix: string): Resource => {
  const found = alarms().filter(([id]) => id.startsWith(`Alarms${prefix}`));
  expect(found, prefix).toHaveLength(1);
  return (found[0] as [string, Resource])[1];
};

describe('alarms (item 9)', () => {
  it('publishes every alarm and its recovery to one SNS topic, with the operator’s email subscribed', () => {
    const [topicId] = only(template, 'AWS::SNS::Topic', 'AlarmsTopic');
    template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@example.com',
      TopicArn: { Ref: topicId },
    });
    expect(alarms().length).toBeGreaterThan(20);
    for (const [, a] of alarms()) {
      expect(a.Properties.AlarmActions).toEqual([{ Ref: topicId }]);
      expect(a.Properties.OKActions).toEqual([{ Ref: topicId }]);
    }
    template.hasOutput('AlarmTopicArn', { Value: { Ref: topicId } });
  });

  it('has no subscription without vigil:alarmEmail', () => {
    expect(Object.keys(synth().findResources('AWS::SNS::Subscription'))).toHaveLength(0);
  });

  it('alarms on a message in each DLQ', () => {
    for (const [name, queue] of [
      ['Probe', 'ChecksProbeDlq'],
      ['Notify', 'NotifyDlq'],
      ['Action', 'ActionsDlq'],
      ['Stream', 'ChangeFeedDlq'],
    ] as const) {
      expect(alarm(`${name}DlqDepth`).Properties).toMatchObject({
        Namespace: 'AWS/SQS',
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Dimensions: [
          { Name: 'QueueName', Value: getAtt(only(template, 'AWS::SQS::Queue', queue)[0], 'QueueName') },
        ],
        Threshold: 0,
        ComparisonOperator: 'GreaterThanThreshold',
      });
    }
  });

  it('alarms on the probe queue’s oldest message and the worker’s QueueLag', () => {
    expect(alarm('ProbeQueueAge').Properties).toMatchObject({
      MetricName: 'ApproximateAgeOfOldestMessage',
      Dimensions: [
        {
          Name: 'QueueName',
          Value: getAtt(only(template, 'AWS::SQS::Queue', 'ChecksProbeQueue')[0], 'QueueName'),
        },
      ],
      Threshold: 300,
    });
    expect(alarm('ProbeQueueLag').Properties).toMatchObject({
      Namespace: 'Vigil',
      MetricName: 'QueueLag',
      Dimensions: [{ Name: 'service', Value: 'worker' }],
      Threshold: 300_000,
    });
  });

  it('alarms on the stream function’s IteratorAge', () => {
    expect(alarm('StreamIteratorAge').Properties).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: 'IteratorAge',
      Dimensions: [
        { Name: 'FunctionName', Value: { Ref: lambdaFunction(template, 'ChangeFeedHandler')[0] } },
      ],
      Statistic: 'Maximum',
    });
  });

  it('alarms on Errors and Throttles of every Vigil function', () => {
    const functions = {
      Api: 'ApiHandler',
      Generator: 'ChecksGenerator',
      Worker: 'ChecksWorker',
      Stream: 'ChangeFeedHandler',
      StatusStream: 'StatusStreamHandler',
      Notifier: 'NotifyNotifier',
      Actions: 'ActionsWorker',
      Mcp: 'McpHandler',
      Config: 'ConfigHandler',
    };
    for (const [name, prefix] of Object.entries(functions)) {
      const dimensions = [{ Name: 'FunctionName', Value: { Ref: lambdaFunction(template, prefix)[0] } }];
      for (const metric of ['Errors', 'Throttles'])
        expect(alarm(`${name}${metric}`).Properties).toMatchObject({
          Namespace: 'AWS/Lambda',
          MetricName: metric,
          Dimensions: dimensions,
          Threshold: 0,
          ComparisonOperator: 'GreaterThanThreshold',
        });
    }
  });

  it('alarms on a missed generator minute, missing data counting as missed', () => {
    expect(alarm('GeneratorMissedMinute').Properties).toMatchObject({
      MetricName: 'Invocations',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: lambdaFunction(template, 'ChecksGenerator')[0] } }],
      Period: 60,
      Statistic: 'Sum',
      Threshold: 1,
      ComparisonOperator: 'LessThanThreshold',
      TreatMissingData: 'breaching',
      EvaluationPeriods: 3,
      DatapointsToAlarm: 2,
    });
  });

  it('alarms on DynamoDB throttling: read and write throttle events, and throttled requests', () => {
    const events = JSON.stringify(alarm('TableThrottleEvents').Properties.Metrics);
    expect(events).toContain('ReadThrottleEvents');
    expect(events).toContain('WriteThrottleEvents');
    expect(events).toContain(tableId);
    const requests = JSON.stringify(alarm('TableThrottledRequests').Properties.Metrics);
    expect(requests).toContain('ThrottledRequests');
    for (const op of ['GetItem', 'Query', 'UpdateItem', 'TransactWriteItems']) expect(requests).toContain(op);
  });

  it('has a dashboard of the same metrics', () => {
    const [, dashboard] = only(template, 'AWS::CloudWatch::Dashboard');
    const body = JSON.stringify(dashboard.Properties.DashboardBody);
    for (const metric of [
      'ApproximateNumberOfMessagesVisible',
      'ApproximateAgeOfOldestMessage',
      'QueueLag',
      'IteratorAge',
      'Invocations',
      'Errors',
      'Throttles',
      'ReadThrottleEvents',
    ])
      expect(body).toContain(metric);
  });
});

describe('isolation and least privilege (item 10)', () => {
  const reservedOf = (t: Template, prefix: string) =>
    lambdaFunction(t, prefix)[1].Properties.ReservedConcurrentExecutions;

  it('reserves concurrency for the worker, stream and notifier, and caps MCP, status stream, configuration and actions', () => {
    const plan = capacityPlan();
    expect(reservedOf(template, 'ChecksWorker')).toBe(plan.workerConcurrency);
    expect(reservedOf(template, 'ChangeFeedHandler')).toBe(FIXED_CONCURRENCY.stream);
    expect(reservedOf(template, 'NotifyNotifier')).toBe(FIXED_CONCURRENCY.notifier);
    expect(reservedOf(template, 'ActionsWorker')).toBe(FIXED_CONCURRENCY.actions);
    expect(reservedOf(template, 'McpHandler')).toBe(FIXED_CONCURRENCY.mcp);
    expect(reservedOf(template, 'StatusStreamHandler')).toBe(FIXED_CONCURRENCY.statusStream);
    expect(reservedOf(template, 'ConfigHandler')).toBe(FIXED_CONCURRENCY.config);
  });

  it('never lets an SQS event source run more than its function reserves (a throttle would count as a receive)', () => {
    for (const prefix of ['ChecksWorker', 'NotifyNotifier', 'ActionsWorker']) {
      const [, mapping] = only(template, 'AWS::Lambda::EventSourceMapping', `${prefix}Function`);
      expect(mapping.Properties.ScalingConfig).toEqual({ MaximumConcurrency: reservedOf(template, prefix) });
    }
  });

  it('gives no function BatchWriteItem, Scan or the managed basic execution role', () => {
    const statements = Object.values(template.findResources('AWS::IAM::Policy')).flatMap(
      (p) => (p.Properties.PolicyDocument as { Statement: { Action: string | string[] }[] }).Statement,
    );
    const actions = statements.flatMap((st) => st.Action);
    expect(actions).not.toContain('dynamodb:BatchWriteItem');
    expect(actions).not.toContain('dynamodb:Scan');
    for (const [id, role] of Object.entries(template.findResources('AWS::IAM::Role'))) {
      if (id.startsWith('CustomCDKBucketDeployment')) continue;
      expect(JSON.stringify(role.Properties.ManagedPolicyArns ?? []), id).not.toContain(
        'AWSLambdaBasicExecutionRole',
      );
    }
  });

  it('lets each function write its own log group only', () => {
    const [logsId] = only(template, 'AWS::Logs::LogGroup', 'ChecksGeneratorLogs');
    const logs = allowStatements(template, 'ChecksGenerator').filter((st) =>
      JSON.stringify(st.Action).includes('logs:'),
    );
    expect(logs).toEqual([
      expect.objectContaining({
        Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        Resource: getAtt(logsId),
      }),
    ]);
  });

  it('gives the generator Query, GetItem and UpdateItem only; the others the store’s actions; indexes by name', () => {
    const onTable = (prefix: string) =>
      allowStatements(template, prefix)
        // A NotResource statement (sns:Publish to phone numbers) has no Resource.
        .filter((st) => JSON.stringify(st.Resource ?? null).includes(tableId))
        .map((st) => ({ Action: [st.Action].flat().sort(), Resource: st.Resource }));
    const indexes = {
      Action: ['dynamodb:Query'],
      Resource: ['gsi1', 'gsi2'].map((name) => ({ 'Fn::Join': ['', [getAtt(tableId), `/index/${name}`]] })),
    };
    expect(onTable('ChecksGenerator')).toEqual([
      { Action: [...GENERATOR_TABLE_ACTIONS].sort(), Resource: getAtt(tableId) },
      indexes,
    ]);
    for (const prefix of [
      'ApiHandler',
      'McpHandler',
      'StatusStreamHandler',
      'ConfigHandler',
      'ChecksWorker',
      'NotifyNotifier',
    ])
      expect(onTable(prefix), prefix).toEqual([
        { Action: [...TABLE_ACTIONS].sort(), Resource: getAtt(tableId) },
        indexes,
      ]);
  });

  it('lets the schedules invoke the generator itself, no version or alias of it', () => {
    const [, role] = only(template, 'AWS::IAM::Policy', 'ChecksSchedulerRoleDefaultPolicy');
    expect((role.Properties.PolicyDocument as { Statement: unknown[] }).Statement).toEqual([
      {
        Action: 'lambda:InvokeFunction',
        Effect: 'Allow',
        Resource: getAtt(lambdaFunction(template, 'ChecksGenerator')[0]),
      },
    ]);
  });

  it('turns deletion protection on for the retained table', () => {
    const [, table] = only(template, 'AWS::DynamoDB::Table');
    expect(table.Properties.DeletionProtectionEnabled).toBe(true);
    template.hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
  });

  it('logs the console bucket and the distribution to an access-log bucket', () => {
    const [logsId] = only(template, 'AWS::S3::Bucket', 'ConsoleAccessLogs');
    template.hasResourceProperties('AWS::S3::Bucket', {
      LoggingConfiguration: { DestinationBucketName: { Ref: logsId } },
    });
    template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({ Logging: Match.objectLike({ Prefix: 'cloudfront/' }) }),
    });
  });

  it('has no web ACL unless asked', () => {
    expect(Object.keys(template.findResources('AWS::WAFv2::WebACL'))).toHaveLength(0);
  });

  it('with vigil:waf in us-east-1: a rate-based rule and the common rule set on CloudFront', () => {
    const waf = synth({ env: { region: 'us-east-1', account: '123456789012' }, settings: { waf: 'true' } });
    const [aclId, acl] = only(waf, 'AWS::WAFv2::WebACL');
    expect(acl.Properties.Scope).toBe('CLOUDFRONT');
    const rules = acl.Properties.Rules as { Statement: Record<string, Record<string, unknown>> }[];
    expect(rules.map((r) => Object.keys(r.Statement)[0])).toEqual([
      'RateBasedStatement',
      'ManagedRuleGroupStatement',
    ]);
    expect(rules[0]?.Statement.RateBasedStatement).toMatchObject({ AggregateKeyType: 'IP', Limit: 2000 });
    expect(rules[1]?.Statement.ManagedRuleGroupStatement).toMatchObject({
      VendorName: 'AWS',
      Name: 'AWSManagedRulesCommonRuleSet',
    });
    waf.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({ WebACLId: getAtt(aclId) }),
    });
  });

  it('refuses vigil:waf outside us-east-1 (a CloudFront ACL lives there), and takes an ACL made there', () => {
    expect(() => synth({ env: { region: 'eu-west-1' }, settings: { waf: 'true' } })).toThrow(/us-east-1/);
    expect(() => synth({ settings: { waf: 'true' } })).toThrow(/vigil:wafAclArn/);
    const arn = 'arn:aws:wafv2:us-east-1:123456789012:global/webacl/vigil/abc';
    synth({ env: { region: 'eu-west-1' }, settings: { wafAclArn: arn } }).hasResourceProperties(
      'AWS::CloudFront::Distribution',
      { DistributionConfig: Match.objectLike({ WebACLId: arn }) },
    );
  });
});

describe('scale by design (item 11)', () => {
  it('sizes the worker from the cells due each minute, not a fixed number', () => {
    // The default keeps the fixed maximum of before (50), now as 150,000 checks' cells.
    expect(capacityPlan().workerConcurrency).toBe(50);
    expect(capacityPlan({ expectedChecks: 100_000 }).workerConcurrency).toBe(34);
    expect(capacityPlan({ expectedChecks: 1_000_000, dueShards: 10 }).workerConcurrency).toBe(334);
    // Half-full cells: twice the cells, twice the workers.
    expect(capacityPlan({ expectedChecks: 100_000, expectedCells: 2_000 }).workerConcurrency).toBe(67);
    const big = synth({ capacity: { expectedChecks: 1_000_000, dueShards: 10 } });
    const [, worker] = lambdaFunction(big, 'ChecksWorker');
    expect(worker.Properties.ReservedConcurrentExecutions).toBe(334);
    const [, mapping] = only(big, 'AWS::Lambda::EventSourceMapping', 'ChecksWorkerFunction');
    expect(mapping.Properties.ScalingConfig).toEqual({ MaximumConcurrency: 334 });
  });

  it('splits the due shards over one schedule per group, each naming its range', () => {
    const big = synth({ capacity: { expectedChecks: 1_000_000, dueShards: 10 } });
    // The generator's schedules (the reports function has its own, infra/reports.ts).
    const schedules = Object.entries(big.findResources('AWS::Scheduler::Schedule'))
      .filter(([id]) => id.startsWith('ChecksGeneratorSchedule'))
      .map(([, s]) => s) as Resource[];
    const ranges = schedules
      .map((s) => JSON.parse((s.Properties.Target as { Input: string }).Input))
      .map((input: { shard_from: number; shard_to: number }) => [input.shard_from, input.shard_to]);
    expect(ranges.sort((a, b) => (a[0] ?? 0) - (b[0] ?? 0))).toEqual([
      [0, 4],
      [4, 8],
      [8, 10],
    ]);
    const [, generator] = lambdaFunction(big, 'ChecksGenerator');
    expect(
      (generator.Properties.Environment as { Variables: Record<string, unknown> }).Variables.VIGIL_DUE_SHARDS,
    ).toBe('10');
    // The missed-minute alarm expects one invocation per group.
    const missed = Object.entries(big.findResources('AWS::CloudWatch::Alarm')).find(([id]) =>
      id.startsWith('AlarmsGeneratorMissedMinute'),
    );
    expect(missed?.[1].Properties.Threshold).toBe(3);
  });

  it('keeps one schedule, with every shard, at the default size', () => {
    const [, schedule] = only(template, 'AWS::Scheduler::Schedule', 'ChecksGeneratorSchedule');
    expect(JSON.parse((schedule.Properties.Target as { Input: string }).Input)).toMatchObject({
      shard_from: 0,
      shard_to: 4,
    });
  });

  it('fails the synth naming the context key when the plan cannot hold', () => {
    const bad = (settings: CapacitySettings, key: RegExp) =>
      expect(() => capacityPlan(settings)).toThrow(key);
    bad({ expectedChecks: 1_000_000 }, /vigil:dueShards=10/);
    bad({ expectedChecks: 'many' }, /vigil:expectedChecks/);
    bad({ expectedChecks: 1_000_000, dueShards: 10, accountConcurrency: 500 }, /vigil:accountConcurrency/);
    bad({ expectedChecks: 5_000_000, dueShards: 50 }, /past an SQS event source/);
  });
});

describe('the first key (item 12)', () => {
  it('outputs the table name for the operator CLI', () => {
    template.hasOutput('TableName', { Value: { Ref: tableId } });
  });
});
