import { createHash, randomUUID } from 'node:crypto';
import {
  SendMessageBatchCommand,
  type SendMessageBatchCommandInput,
  type SendMessageBatchCommandOutput,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { expect, inject, vi } from 'vitest';
import { createApiHandler } from '../../functions/api.ts';
import { createApp } from '../../lib/app.ts';
import { type ProbeJob, probeJobId, probeJobSchema } from '../../lib/checks/probe-job.ts';
import { createCellRunner } from '../../lib/checks/runner/cell-runner.ts';
import { createPowertoolsLogger } from '../../lib/cloud/edge/lambda-edge.ts';
import { jobEnvelopeSchema } from '../../lib/cloud/queues/sqs-job-queue.ts';
import { createGenerator } from '../../lib/cloud/workers/generator.ts';
import { createGeneratorHandler } from '../../lib/cloud/workers/generator-handler.ts';
import { createProbeJobQueue, createWorkerHandler } from '../../lib/cloud/workers/worker.ts';
import { createDynamoTable } from '../../lib/dynamodb/dynamodb-table.ts';
import { createFakeClock, isoTime } from '../../lib/platform/clock.ts';
import { loadConfig } from '../../lib/platform/config.ts';
import { createLogger } from '../../lib/platform/logger.ts';
import { memoryJobQueue } from '../notify/support/memory-queue.ts';
import { createTestTable } from '../support/dynamodb-local.ts';
import { DEPLOYED_QUEUES, type FauxqsEngine } from '../support/fauxqs.ts';
import { lambdaContext } from '../support/lambda-context.ts';
import { createSqsEventSource } from '../support/sqs-event-source.ts';

export const QUEUE_URL = 'https://sqs.us-east-1.amazonaws.com/123456789012/vigil-probes';
export const START_MS = Date.parse('2026-01-01T00:00:00.000Z');

/** A message the mocked SQS accepted, as the generator sent it. */
export interface SentMessage {
  messageId: string;
  body: string;
  delaySeconds: number;
  /** Fake-clock time of the SendMessageBatch call. */
  sentAtMs: number;
}

/** The probe job a sent message carries (the queue's `{id, body}` envelope, parsed). */
export function jobOf(messageBody: string | undefined): ProbeJob & { job_id: string } {
  const envelope = jobEnvelopeSchema.parse(JSON.parse(String(messageBody)));
  return { ...probeJobSchema.parse(envelope.body), job_id: envelope.id };
}

/** A message body as the generator sends a probe job. */
export function probeMessageBody(job: ProbeJob): string {
  return JSON.stringify({ id: probeJobId(job), body: job });
}

/** What EventBridge Scheduler sends (the Input of infra/checks.ts, context attributes filled in). */
export function schedulerEvent(scheduledMs: number, attempt = 1) {
  return {
    scheduled_time: isoTime(scheduledMs).replace('.000Z', 'Z'),
    execution_id: randomUUID().replaceAll('-', '').slice(0, 16),
    attempt: String(attempt),
  };
}

/** An SQS event as the Lambda event source mapping delivers it. */
export function sqsEvent(
  messages: { messageId: string; body: string; sentAtMs?: number; receives?: number }[],
) {
  const event: SQSEvent = {
    Records: messages.map((m) => ({
      messageId: m.messageId,
      receiptHandle: `AQEB${randomUUID().replaceAll('-', '')}`,
      body: m.body,
      attributes: {
        ApproximateReceiveCount: String(m.receives ?? 1),
        SentTimestamp: String(m.sentAtMs ?? START_MS),
        SenderId: 'AROAEXAMPLE123:vigil-generator',
        ApproximateFirstReceiveTimestamp: String(m.sentAtMs ?? START_MS),
      },
      messageAttributes: {},
      md5OfBody: createHash('md5').update(m.body).digest('hex'),
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:us-east-1:123456789012:vigil-probes',
      awsRegion: 'us-east-1',
    })),
  };
  return event;
}

/** Queues this file created on an engine (each harness gets its own). */
let engineQueues = 0;

/**
 * The cloud Lambda handlers (generator, worker, api) over a fresh DynamoDB Local table, a fake
 * clock, and an SQS client mocked with aws-sdk-client-mock that accepts and records every entry
 * (tests that inject SQS failures or hand the worker events of their own), or, given `engine`, the
 * probe queue on that real SQS engine (fauxqs) with the worker behind its event-source poller.
 */
export async function startCloudHarness(
  options: { env?: Record<string, string>; engine?: FauxqsEngine } = {},
) {
  const testTable = await createTestTable(inject('dynamodbEndpoint'));
  const fake = createFakeClock(START_MS);
  // With a real SQS engine in this process (fauxqs keeps time with Date.now()), the fake Date
  // follows the app's clock, so delays and visibility pass as the test moves the clock.
  if (options.engine) vi.useFakeTimers({ toFake: ['Date'], now: START_MS });
  const clock = options.engine
    ? {
        now: fake.now,
        advance: (ms: number) => {
          fake.advance(ms);
          vi.setSystemTime(fake.now());
        },
        set: (ms: number) => {
          fake.set(ms);
          vi.setSystemTime(ms);
        },
      }
    : fake;
  const logs: string[] = [];
  const logger = createLogger({ level: 'debug', write: (line) => logs.push(line) });
  const config = loadConfig('cloud', {
    VIGIL_TABLE_NAME: testTable.tableName,
    VIGIL_PROBE_QUEUE_URL: QUEUE_URL,
    ...options.env,
  });
  const table = createDynamoTable({ client: testTable.client, tableName: testTable.tableName });
  const app = createApp({
    table,
    clock,
    logger,
    config,
    notifyQueue: memoryJobQueue(),
    actionQueue: memoryJobQueue('action'),
  });
  const sqs = new SQSClient({ region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
  const sqsMock = mockClient(sqs);
  const sent: SentMessage[] = [];
  const accept = (input: SendMessageBatchCommandInput): SendMessageBatchCommandOutput => {
    const entries = input.Entries ?? [];
    const successful = entries.map((entry) => {
      const messageId = randomUUID();
      sent.push({
        messageId,
        body: entry.MessageBody ?? '',
        delaySeconds: entry.DelaySeconds ?? 0,
        sentAtMs: clock.now(),
      });
      return { Id: entry.Id, MessageId: messageId, MD5OfMessageBody: 'x' };
    });
    return { Successful: successful, Failed: [], $metadata: {} };
  };
  sqsMock.on(SendMessageBatchCommand).callsFake(accept);
  const engineQueue = options.engine?.createQueue(`vigil-probes-${++engineQueues}`, DEPLOYED_QUEUES.probe);
  const probeQueue = createProbeJobQueue({
    sqs: options.engine?.sqs ?? sqs,
    queueUrl: engineQueue?.url ?? QUEUE_URL,
    logger,
  });
  const generator = createGenerator({ table, queue: probeQueue, clock, dueShards: config.dueShards, logger });
  const generatorHandler = createGeneratorHandler({ generator, clock, logger });
  const cells = createCellRunner({ table, prober: app.jobRunner.prober, tenants: app.tenants, clock });
  const workerHandler = createWorkerHandler({
    queue: probeQueue,
    jobRunner: app.jobRunner,
    cells,
    clock,
    logger,
  });
  const probeSource =
    options.engine && engineQueue
      ? createSqsEventSource({
          sqs: options.engine.sqs,
          queue: engineQueue,
          handler: workerHandler,
          functionName: 'worker',
        })
      : undefined;
  const apiHandler = createApiHandler({
    app,
    logger,
    powertools: createPowertoolsLogger({ level: 'silent' }),
  });
  const first = await app.tenants.createTenant({ name: 'Acme', email: 'ops@acme.test' });

  return {
    app,
    table,
    tableName: testTable.tableName,
    dynamodb: testTable.client,
    clock,
    logs,
    sqs,
    sqsMock,
    /** Accepts and records a batch; tests that replace the mock's behaviour call it to succeed. */
    accept,
    sent,
    probeQueue,
    /** With `engine`: the probe queue there, and the worker's event-source mapping polling it. */
    engine: options.engine,
    engineQueue,
    probeSource,
    generator,
    tenantId: first.tenant.id,
    adminKey: first.rawKey,
    /** Runs the generator Lambda for the minute the fake clock is in. */
    runGenerator: (event: unknown = schedulerEvent(Math.floor(clock.now() / 60_000) * 60_000)) =>
      generatorHandler(event),
    runWorker: (event: unknown) => workerHandler(event, lambdaContext('worker')),
    /** One API request through the api Lambda handler (JSON in, parsed JSON out). */
    async api(method: string, path: string, body?: unknown) {
      const raw = body === undefined ? undefined : Buffer.from(JSON.stringify(body)).toString('base64');
      const result = await apiHandler(
        {
          version: '2.0',
          routeKey: '$default',
          rawPath: path,
          rawQueryString: '',
          headers: { authorization: `Bearer ${first.rawKey}`, 'content-type': 'application/json' },
          requestContext: {
            accountId: '123456789012',
            apiId: 'api',
            domainName: 'api.example.com',
            domainPrefix: 'api',
            http: { method, path, protocol: 'HTTP/1.1', sourceIp: '203.0.113.9', userAgent: 'vitest' },
            requestId: randomUUID(),
            routeKey: '$default',
            stage: '$default',
            time: new Date(clock.now()).toISOString(),
            timeEpoch: clock.now(),
          },
          body: raw,
          isBase64Encoded: raw !== undefined,
        },
        lambdaContext('api'),
      );
      return { status: result.statusCode ?? 200, body: result.body ? JSON.parse(result.body) : undefined };
    },
    async close() {
      if (options.engine) vi.useRealTimers();
      sqsMock.restore();
      sqs.destroy();
      await testTable.drop();
    },
  };
}

export type CloudHarness = Awaited<ReturnType<typeof startCloudHarness>>;

/** Creates blueprint `web` and an entity in it through the api handler; returns the entity id. */
/**
 * Fires the generator for the fake clock's minute and delivers every job it sent to the worker
 * (the clock moved to each job's delivery time first); returns the jobs sent.
 */
export async function runGeneratorMinute(h: CloudHarness): Promise<SentMessage[]> {
  const before = h.sent.length;
  await h.runGenerator(schedulerEvent(Math.floor(h.clock.now() / 60_000) * 60_000));
  const messages = h.sent.slice(before);
  for (const message of messages) {
    h.clock.set(Math.max(h.clock.now(), message.sentAtMs + message.delaySeconds * 1000));
    const response = await h.runWorker(sqsEvent([message]));
    expect(response.batchItemFailures).toEqual([]);
  }
  return messages;
}

/**
 * With an engine: fires the generator for the clock's minute, then lets time pass a second at a
 * time while the worker's event-source poller takes each job as it becomes visible, until the probe
 * queue is empty (at most the window and its lookahead); returns the bodies sent.
 */
export async function runGeneratorMinuteOnQueue(h: CloudHarness): Promise<string[]> {
  const { engine, engineQueue: queue, probeSource: poller } = h;
  if (!engine || !queue || !poller) throw new Error('the harness has no SQS engine');
  const before = engine.sentBodies(queue.name).length;
  const invocationsBefore = poller.invocations.length;
  await h.runGenerator(schedulerEvent(Math.floor(h.clock.now() / 60_000) * 60_000));
  for (let second = 0; second <= 70; second += 1) {
    await poller.runVisible();
    if (engine.size(queue.name) === 0) break;
    h.clock.advance(1000);
  }
  expect(engine.size(queue.name)).toBe(0);
  expect(poller.invocations.slice(invocationsBefore).flatMap((i) => i.failed)).toEqual([]);
  return engine.sentBodies(queue.name).slice(before);
}

export async function createEntity(h: CloudHarness, slug = 'site'): Promise<string> {
  const bp = await h.api('POST', '/v1/blueprints', { slug: 'web', name: 'Web' });
  if (bp.status !== 201 && bp.status !== 409) throw new Error(`blueprint: ${bp.status}`);
  const entity = await h.api('POST', '/v1/blueprints/web/entities', { slug, name: slug });
  if (entity.status !== 201) throw new Error(`entity: ${entity.status} ${JSON.stringify(entity.body)}`);
  return String(entity.body.id);
}

export { startStatusServer } from '../support/status-server.ts';
export { lambdaContext };
