import { describe, expect, it } from 'vitest';
import { PROBE_MAX_RECEIVE_COUNT } from '../../infra/checks.ts';
import { schedulerPayloadSchema } from '../../lib/cloud/workers/generator-handler.ts';
import { STREAM_ENTITIES } from '../../lib/events/consumers.ts';
import { DEFAULT_MAX_ATTEMPTS } from '../../lib/platform/job-queue.ts';
import { expectTlsOnly, getAtt, only, type Resource, stackTemplateForFile, tableResources } from './synth.ts';

const stack = stackTemplateForFile();
const { fn, actionsOfRole } = stack;

const GENERATOR = 'ChecksGenerator';
const WORKER = 'ChecksWorker';
const STREAM = 'ChangeFeedHandler';

const tableWrites = ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem', 'ConditionCheckItem'].map(
  (a) => `dynamodb:${a}`,
);

describe('probe queue', () => {
  it('redrives to an encrypted DLQ after the 4 attempts of the job queue, and the DLQ keeps messages 14 days', () => {
    const [dlqId, dlq] = only(stack.template, 'AWS::SQS::Queue', 'ChecksProbeDlq');
    const [, queue] = only(stack.template, 'AWS::SQS::Queue', 'ChecksProbeQueue');
    expect(PROBE_MAX_RECEIVE_COUNT).toBe(DEFAULT_MAX_ATTEMPTS);
    expect(queue.Properties.RedrivePolicy).toEqual({
      deadLetterTargetArn: getAtt(dlqId),
      maxReceiveCount: 4,
    });
    expect(dlq.Properties).toMatchObject({ MessageRetentionPeriod: 14 * 86_400, SqsManagedSseEnabled: true });
    expect(queue.Properties.SqsManagedSseEnabled).toBe(true);
    // A message keeps its first enqueue time in the DLQ, so the DLQ must outlive the queue's retention.
    expect(Number(queue.Properties.MessageRetentionPeriod)).toBeLessThan(14 * 86_400);
  });

  it('hides a received message for more than six worker timeouts', () => {
    const [, queue] = only(stack.template, 'AWS::SQS::Queue', 'ChecksProbeQueue');
    const [, worker] = fn(WORKER);
    expect(Number(queue.Properties.VisibilityTimeout)).toBeGreaterThanOrEqual(
      6 * Number(worker.Properties.Timeout),
    );
  });

  it('refuses requests without TLS', () => {
    const [queueId] = only(stack.template, 'AWS::SQS::Queue', 'ChecksProbeQueue');
    expectTlsOnly(stack.template, queueId);
  });
});

describe('generator', () => {
  it('gets the table, the due shards and the probe queue URL from its environment', () => {
    const [queueId] = only(stack.template, 'AWS::SQS::Queue', 'ChecksProbeQueue');
    const [, generator] = fn(GENERATOR);
    expect(generator.Properties.Environment).toEqual({
      Variables: expect.objectContaining({
        VIGIL_TABLE_NAME: { Ref: stack.tableId },
        VIGIL_DUE_SHARDS: '4',
        VIGIL_PROBE_QUEUE_URL: { Ref: queueId },
      }),
    });
    expect(generator.Properties.Handler).toBe('index.handler');
  });

  it('may query, get and update items of the table (and query its indexes), and send to the probe queue', () => {
    const [queueId] = only(stack.template, 'AWS::SQS::Queue', 'ChecksProbeQueue');
    // Least privilege (issue 36): claims and leases are conditional updates; it never puts or deletes.
    expect(actionsOfRole(GENERATOR, tableResources(stack.tableId)).sort()).toEqual(
      ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:UpdateItem'].sort(),
    );
    expect(actionsOfRole(GENERATOR, getAtt(queueId))).toContain('sqs:SendMessage');
    expect(actionsOfRole(GENERATOR, getAtt(queueId))).not.toContain('sqs:ReceiveMessage');
  });

  it('is not retried by Lambda: the next minute finds what a failed run left due', () => {
    const [generatorId] = fn(GENERATOR);
    stack.template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      FunctionName: { Ref: generatorId },
      MaximumRetryAttempts: 0,
    });
  });
});

describe('schedule', () => {
  it('invokes the generator at rate(1 minute) with a retry policy and a role allowed to invoke it', () => {
    const [generatorId] = fn(GENERATOR);
    const [, schedule] = only(stack.template, 'AWS::Scheduler::Schedule', 'ChecksGeneratorSchedule');
    expect(schedule.Properties).toMatchObject({
      ScheduleExpression: 'rate(1 minute)',
      State: 'ENABLED',
      FlexibleTimeWindow: { Mode: 'OFF' },
      Target: {
        Arn: getAtt(generatorId),
        RetryPolicy: { MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 60 },
      },
    });
    const roleArn = (schedule.Properties.Target as { RoleArn: { 'Fn::GetAtt': [string, string] } }).RoleArn;
    const roleId = roleArn['Fn::GetAtt'][0];
    const [, role] = only(stack.template, 'AWS::IAM::Role', roleId);
    expect(JSON.stringify(role.Properties.AssumeRolePolicyDocument)).toContain('scheduler.amazonaws.com');
    const policies = Object.values(stack.template.findResources('AWS::IAM::Policy')) as Resource[];
    const invoke = policies
      .filter((p) => JSON.stringify(p.Properties.Roles) === JSON.stringify([{ Ref: roleId }]))
      .flatMap((p) => (p.Properties.PolicyDocument as { Statement: Record<string, unknown>[] }).Statement);
    expect(invoke).toContainEqual(
      expect.objectContaining({ Action: 'lambda:InvokeFunction', Effect: 'Allow' }),
    );
  });

  it('sends the payload the generator handler parses, filled in by Scheduler', () => {
    const [, schedule] = only(stack.template, 'AWS::Scheduler::Schedule', 'ChecksGeneratorSchedule');
    const input = String((schedule.Properties.Target as { Input: string }).Input);
    const filled = input
      .replace('<aws.scheduler.scheduled-time>', '2026-01-01T00:05:00Z')
      .replace('<aws.scheduler.execution-id>', 'd32c5kddcf5bb8c3')
      .replace('<aws.scheduler.attempt-number>', '1');
    expect(schedulerPayloadSchema.parse(JSON.parse(filled))).toEqual({
      scheduled_time: '2026-01-01T00:05:00Z',
      execution_id: 'd32c5kddcf5bb8c3',
      attempt: 1,
      // One group of every shard at the default size (infra/capacity.ts).
      shard_from: 0,
      shard_to: 4,
    });
  });
});

describe('worker', () => {
  it('consumes the probe queue one job (a cell of up to 100 probes) at a time and reports failures', () => {
    const [queueId] = only(stack.template, 'AWS::SQS::Queue', 'ChecksProbeQueue');
    const [workerId] = fn(WORKER);
    const [, mapping] = only(stack.template, 'AWS::Lambda::EventSourceMapping', `${WORKER}Function`);
    expect(mapping.Properties).toMatchObject({
      EventSourceArn: getAtt(queueId),
      FunctionName: { Ref: workerId },
      BatchSize: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: expect.any(Number) },
    });
  });

  it('may read and write the table, receive from the queue and set retry delays there, with the shared environment', () => {
    const [queueId] = only(stack.template, 'AWS::SQS::Queue', 'ChecksProbeQueue');
    expect(actionsOfRole(WORKER, tableResources(stack.tableId))).toEqual(expect.arrayContaining(tableWrites));
    expect(actionsOfRole(WORKER, getAtt(queueId))).toEqual(
      expect.arrayContaining(['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:ChangeMessageVisibility']),
    );
    const [, worker] = fn(WORKER);
    expect(worker.Properties.Environment).toEqual({
      Variables: expect.objectContaining({
        VIGIL_TABLE_NAME: { Ref: stack.tableId },
        VIGIL_DUE_SHARDS: '4',
        VIGIL_PROBE_QUEUE_URL: { Ref: queueId },
      }),
    });
    // Probe targets stay public-only in the cloud (the config's default there).
    expect(JSON.stringify(worker.Properties.Environment)).not.toContain('VIGIL_ALLOW_PRIVATE_TARGETS');
  });
});

describe('change feed', () => {
  it('reads the table stream in batches of 100, bisecting and retrying failed batches', () => {
    const [streamFnId] = fn(STREAM);
    const [dlqId] = only(stack.template, 'AWS::SQS::Queue', 'ChangeFeedDlq');
    const [, mapping] = only(stack.template, 'AWS::Lambda::EventSourceMapping', `${STREAM}Function`);
    expect(mapping.Properties).toMatchObject({
      EventSourceArn: getAtt(stack.tableId, 'StreamArn'),
      FunctionName: { Ref: streamFnId },
      StartingPosition: 'TRIM_HORIZON',
      BatchSize: 100,
      BisectBatchOnFunctionError: true,
      // Retried until an hour old (past a 15-minute store outage), then the DLQ.
      MaximumRetryAttempts: 10_000,
      MaximumRecordAgeInSeconds: 3_600,
      DestinationConfig: { OnFailure: { Destination: getAtt(dlqId) } },
    });
  });

  it('keeps only records whose new or old image is an item type the consumers read', () => {
    const [, mapping] = only(stack.template, 'AWS::Lambda::EventSourceMapping', `${STREAM}Function`);
    const { Filters } = mapping.Properties.FilterCriteria as { Filters: { Pattern: string }[] };
    const whole = STREAM_ENTITIES.filter((e) => typeof e === 'string');
    expect(Filters.map((f) => JSON.parse(f.Pattern))).toEqual([
      { dynamodb: { NewImage: { entity: { S: whole } } } },
      { dynamodb: { OldImage: { entity: { S: whole } } } },
      // An incident only as its acknowledgement (the one write of it a consumer reads).
      {
        dynamodb: {
          NewImage: { entity: { S: ['incident'] }, state: { S: ['acknowledged'] } },
          OldImage: { state: { S: ['open'] } },
        },
      },
    ]);
    expect(STREAM_ENTITIES).toContain('transition');
    expect(STREAM_ENTITIES).not.toContain('result');
  });

  it('runs functions/stream.ts with the stream read grants and the table', () => {
    const [, streamFn] = fn(STREAM);
    expect(streamFn.Properties.Environment).toEqual({
      Variables: expect.objectContaining({ VIGIL_TABLE_NAME: { Ref: stack.tableId } }),
    });
    expect(actionsOfRole(STREAM, getAtt(stack.tableId, 'StreamArn'))).toEqual(
      expect.arrayContaining(['dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:DescribeStream']),
    );
    expect(actionsOfRole(STREAM, tableResources(stack.tableId))).toEqual(expect.arrayContaining(tableWrites));
  });
});

describe('functions', () => {
  it('are thirteen (api, ping, mcp, status stream, configuration, generator, worker, browser, draft browser, stream, notifier, actions, reports), each with its own log group', () => {
    // Besides CDK's own provider that copies the console into its bucket (infra/console.ts), and
    // the HTTP API's access log (test/infra/stack.test.ts).
    const ours = (type: string) =>
      Object.keys(stack.template.findResources(type)).filter(
        (id) => !id.startsWith('CustomCDKBucketDeployment') && !id.startsWith('ApiAccessLog'),
      );
    expect(ours('AWS::Lambda::Function')).toHaveLength(13);
    expect(ours('AWS::Logs::LogGroup')).toHaveLength(13);
  });
});
