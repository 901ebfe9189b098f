import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import type { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import { ACTION_QUEUE, type ActionJob } from '../actions/jobs.ts';
import { createDynamoTable } from '../dynamodb/dynamodb-table.ts';
import type { EgressSettings } from '../egress/egress.ts';
import { type Clock, systemClock } from '../platform/clock.ts';
import type { Config } from '../platform/config.ts';
import type { RetrySchedule } from '../platform/job-queue.ts';
import { createPowertoolsLogger, fromPowertools, type LambdaLoggerOptions } from './edge/lambda-edge.ts';
import { createActionJobQueue } from './queues/action-queue.ts';
import { deferredJobQueue, type SqsJobQueue } from './queues/sqs-job-queue.ts';
import { createProbeJobQueue } from './workers/worker.ts';

/** What tests replace in every cloud composition (the HTTP functions' own: CloudOverrides in http-composition.ts). */
export interface CloudBaseOverrides {
  /** A DynamoDB client of the test's own (DynamoDB Local). */
  dynamodb?: DynamoDBClient;
  clock?: Clock;
  /** Where the Powertools logger writes its JSON lines (default stdout). */
  logWrite?: (line: string) => void;
  /** An SQS client of the test's own (fauxqs, test/support/fauxqs.ts) for every queue. */
  sqs?: SQSClient;
  /** SQS clients of the test's own for the action and probe queues (default: `sqs`): the cost run counts each queue's requests. */
  actionSqs?: SQSClient;
  probeSqs?: SQSClient;
  /** An EventBridge client of the test's own (aws-sdk-client-mock). */
  eventBridge?: EventBridgeClient;
  /** An S3 client of the test's own (fauxqs) for the artifacts bucket (artifactBucketStore, lib/checks/probing.ts). */
  s3?: S3Client;
  /** Outbound TLS trust and name resolution of the channels (a test CA, loopback receivers). */
  egress?: EgressSettings;
  /**
   * The notify and action queues' retry schedule (default OUTAGE_RETRIES); a test's queues carry
   * its maxAttempts as their maxReceiveCount.
   */
  queueRetries?: RetrySchedule;
}

/** How a function wraps the AWS clients the base creates; the HTTP functions trace them (X-Ray). */
export interface CloudBaseHooks {
  traceClient?: <C extends object>(client: C) => C;
  /** The correlation id's search, for the HTTP edges (LambdaLoggerOptions). */
  correlationIdSearchFn?: LambdaLoggerOptions['correlationIdSearchFn'];
}

/**
 * What every Vigil function holds, whatever it runs: config, the Powertools logger, the table,
 * the clock, the SQS client and the action and probe queues (each resolved at its first use, so a
 * function without a queue's URL still starts); the notify queue is notifyQueueOf(base)'s. Built once per Lambda container, at module scope.
 */
export function createCloudBase(
  config: Config,
  overrides: CloudBaseOverrides = {},
  hooks: CloudBaseHooks = {},
) {
  const traced = hooks.traceClient ?? (<C>(client: C) => client);
  const powertools = createPowertoolsLogger({
    level: config.logLevel,
    ...(overrides.logWrite ? { write: overrides.logWrite } : {}),
    ...(hooks.correlationIdSearchFn ? { correlationIdSearchFn: hooks.correlationIdSearchFn } : {}),
  });
  const logger = fromPowertools(powertools);
  const client = traced(
    overrides.dynamodb ??
      new DynamoDBClient({
        region: config.region,
        ...(config.dynamodbEndpoint ? { endpoint: config.dynamodbEndpoint } : {}),
      }),
  );
  const table = createDynamoTable({ client, tableName: config.tableName });
  const clock = overrides.clock ?? systemClock;
  // Creating a client opens nothing; the generator, the worker, the notify flow call SQS.
  const sqs = traced(overrides.sqs ?? new SQSClient({ region: config.region }));
  const retries = overrides.queueRetries ? { retries: overrides.queueRetries } : {};
  let actionSqsQueue: SqsJobQueue<ActionJob> | undefined;
  const requireActionQueue = (why: string) => {
    const queueUrl = config.actionQueueUrl;
    if (!queueUrl) throw new Error(`VIGIL_ACTION_QUEUE_URL is not set (${why})`);
    actionSqsQueue ??= createActionJobQueue({
      sqs: overrides.actionSqs ? traced(overrides.actionSqs) : sqs,
      queueUrl,
      logger,
      ...retries,
    });
    return actionSqsQueue;
  };
  const probeQueue = (why: string) => {
    const queueUrl = config.probeQueueUrl;
    if (!queueUrl) throw new Error(`VIGIL_PROBE_QUEUE_URL is not set (${why})`);
    return createProbeJobQueue({
      sqs: overrides.probeSqs ? traced(overrides.probeSqs) : sqs,
      queueUrl,
      logger,
    });
  };
  return {
    config,
    overrides,
    /** How this function wraps the AWS clients it creates (the artifacts bucket's S3 client too). */
    traced,
    /** The Powertools logger the edges hand to `injectLambdaContext`; `logger` writes through it. */
    powertools,
    logger,
    table,
    clock,
    sqs,
    // The stream function (triggers), the generator (schedule runs), the action worker and the
    // api function (deadlines of dispatched pipelines) enqueue there.
    actionQueue: deferredJobQueue(ACTION_QUEUE, () => requireActionQueue('action jobs are enqueued there')),
    requireActionQueue,
    probeQueue,
  };
}

export type CloudBase = ReturnType<typeof createCloudBase>;
