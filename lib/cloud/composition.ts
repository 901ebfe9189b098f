import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { SQSClient } from '@aws-sdk/client-sqs';
import type { Context, SQSBatchResponse } from 'aws-lambda';
import { ACTION_QUEUE, type ActionJob } from '../actions/jobs.ts';
import { type CoreDeps, createApp } from '../app.ts';
import { createStoreRateLimiter } from '../auth/rate-limit-items.ts';
import { createCellRunner } from '../checks/cell-runner.ts';
import type { LegacyStreamSettings } from '../mcp/legacy-sse.ts';
import { NOTIFY_QUEUE, type NotifyJob } from '../notify/jobs.ts';
import { type Clock, systemClock } from '../platform/clock.ts';
import { type Config, loadConfig } from '../platform/config.ts';
import { createEgressPool } from '../platform/egress-pool.ts';
import type { StatusStreamSettings } from '../status/stream-service.ts';
import type { ChangeConsumer } from '../store/change-feed.ts';
import { createDynamoTable } from '../store/dynamodb-table.ts';
import { createStoreStreamSlots } from '../streams/store-stream-slots.ts';
import { createActionJobQueue } from './action-queue.ts';
import { createEventBusPublisher } from './event-bus.ts';
import { createGenerator } from './generator.ts';
import { createGeneratorHandler } from './generator-handler.ts';
import { createPowertoolsLogger, fromPowertools } from './lambda-edge.ts';
import { createNotifyJobQueue, deferredJobQueue } from './notify-queue.ts';
import { createSqsBatchHandler } from './sqs-batch.ts';
import type { SqsJobQueue } from './sqs-job-queue.ts';
import { createProbeJobQueue, createWorkerHandler } from './worker.ts';

/** What tests replace in the cloud composition; a deployment passes nothing but `statusStream`. */
export interface CloudOverrides {
  /** A DynamoDB client of the test's own (DynamoDB Local). */
  dynamodb?: DynamoDBClient;
  clock?: Clock;
  /** Where the Powertools logger writes its JSON lines (default stdout). */
  logWrite?: (line: string) => void;
  /** How GET /v1/status/stream polls and when it ends; default STATUS_STREAM_VIA_API_GATEWAY. */
  statusStream?: StatusStreamSettings;
  /** When the legacy MCP SSE stream ends and how it polls the relay; default MCP_SSE_VIA_API_GATEWAY. */
  mcpSse?: Partial<LegacyStreamSettings>;
  /** An SQS client of the test's own (test/platform/fake-sqs.ts) for the probe and notify queues. */
  sqs?: SQSClient;
  /** SQS clients of the test's own for the action and probe queues (default: `sqs`); a fake SQS holds one queue. */
  actionSqs?: SQSClient;
  probeSqs?: SQSClient;
  /** An EventBridge client of the test's own (aws-sdk-client-mock). */
  eventBridge?: EventBridgeClient;
  /** Outbound TLS trust and name resolution of the channels (a test CA, loopback receivers). */
  egress?: CoreDeps['egress'];
}

/**
 * Through API Gateway the stream is buffered until it ends, and the api function has 29 s: it
 * answers with what arrived in 20 s. The status-stream function (a function URL) streams for longer.
 */
export const STATUS_STREAM_VIA_API_GATEWAY: StatusStreamSettings = { follow: 'poll', maxDurationMs: 20_000 };

/**
 * The MCP function (functions/mcp.ts, a function URL) times out at Lambda's maximum; a legacy SSE
 * stream ends 30 s before that, so the client reconnects instead of being cut off.
 */
export const MCP_FUNCTION_TIMEOUT_MS = 900_000;
/** How long the MCP function holds a legacy SSE stream open. */
export const MCP_SSE_FUNCTION_MS = MCP_FUNCTION_TIMEOUT_MS - 30_000;
/**
 * A legacy SSE GET reaching the api function through API Gateway is buffered until it ends: it
 * ends in 20 s, inside the 29 s limit, and its session with it. Clients stream from the MCP function.
 */
export const MCP_SSE_VIA_API_GATEWAY: Partial<LegacyStreamSettings> = { maxDurationMs: 20_000 };

/** The cloud composition root: built once per Lambda container, at module scope. */
export function createCloudApp(config: Config = loadConfig('cloud'), overrides: CloudOverrides = {}) {
  const powertools = createPowertoolsLogger({
    level: config.logLevel,
    ...(overrides.logWrite ? { write: overrides.logWrite } : {}),
  });
  const logger = fromPowertools(powertools);
  const client =
    overrides.dynamodb ??
    new DynamoDBClient({
      region: config.region,
      ...(config.dynamodbEndpoint ? { endpoint: config.dynamodbEndpoint } : {}),
    });
  const table = createDynamoTable({ client, tableName: config.tableName });
  const clock = overrides.clock ?? systemClock;
  // Creating a client opens nothing; the generator, the worker, the notify flow call SQS.
  const sqs = overrides.sqs ?? new SQSClient({ region: config.region });
  let notifySqsQueue: SqsJobQueue<NotifyJob> | undefined;
  const notifyQueue = (why: string) => {
    const queueUrl = config.notifyQueueUrl;
    if (!queueUrl) throw new Error(`VIGIL_NOTIFY_QUEUE_URL is not set (${why})`);
    notifySqsQueue ??= createNotifyJobQueue({ sqs, queueUrl, logger });
    return notifySqsQueue;
  };
  let actionSqsQueue: SqsJobQueue<ActionJob> | undefined;
  const actionQueue = (why: string) => {
    const queueUrl = config.actionQueueUrl;
    if (!queueUrl) throw new Error(`VIGIL_ACTION_QUEUE_URL is not set (${why})`);
    actionSqsQueue ??= createActionJobQueue({ sqs: overrides.actionSqs ?? sqs, queueUrl, logger });
    return actionSqsQueue;
  };
  // Rate limits hold across Lambda instances: every instance counts in the same table items.
  const app = createApp({
    table,
    clock,
    logger,
    config,
    rateLimiter: createStoreRateLimiter({ table, clock }),
    // Each instance holds streams of its own: their caps are counted in lease items of the table.
    streamSlots: createStoreStreamSlots({ table, clock, logger, caps: config.streamCaps }),
    statusStream: overrides.statusStream ?? STATUS_STREAM_VIA_API_GATEWAY,
    mcpSse: overrides.mcpSse ?? MCP_SSE_VIA_API_GATEWAY,
    // Only the stream function (events), the notifier and the api function (retries) enqueue there.
    notifyQueue: deferredJobQueue(NOTIFY_QUEUE, () => notifyQueue('notification jobs are enqueued there')),
    // The stream function (triggers), the generator (schedule runs), the action worker and the
    // api function (deadlines of dispatched pipelines) enqueue there.
    actionQueue: deferredJobQueue(ACTION_QUEUE, () => actionQueue('action jobs are enqueued there')),
    // One set of kept-alive pools per container: its idle sockets close on their own (4-10 s).
    egress: { transport: createEgressPool().transport, ...overrides.egress },
  });
  const busName = config.eventBusName;
  // The stream function's consumers: the app's, and the bus publisher when a bus is configured.
  const streamConsumers: ChangeConsumer[] = busName
    ? [
        ...app.consumers,
        createEventBusPublisher({
          client: overrides.eventBridge ?? new EventBridgeClient({ region: config.region }),
          busName,
          logger,
        }),
      ]
    : app.consumers;
  const probeQueue = (why: string) => {
    const queueUrl = config.probeQueueUrl;
    if (!queueUrl) throw new Error(`VIGIL_PROBE_QUEUE_URL is not set (${why})`);
    return createProbeJobQueue({ sqs: overrides.probeSqs ?? sqs, queueUrl, logger });
  };
  return {
    config,
    /** The Powertools logger the edges hand to `injectLambdaContext`; `logger` writes through it. */
    powertools,
    logger,
    table,
    app,
    sqs,
    /** What the stream function feeds each change to (the app's consumers, then the event bus). */
    streamConsumers,
    /** The generator Lambda's handler; needs VIGIL_PROBE_QUEUE_URL, and VIGIL_ACTION_QUEUE_URL once a scheduled action is due. */
    generatorHandler() {
      const queue = probeQueue('the generator enqueues there');
      const generator = createGenerator({
        table,
        queue,
        clock,
        dueShards: config.dueShards,
        logger,
        actionQueue: app.actionQueue,
      });
      return createGeneratorHandler({ generator, clock, logger });
    },
    /** The probe worker Lambda's SQS batch handler; needs VIGIL_PROBE_QUEUE_URL. */
    workerHandler: () =>
      createWorkerHandler({
        queue: probeQueue('the worker sets retry delays there'),
        jobRunner: app.jobRunner,
        cells: createCellRunner({ table, prober: app.jobRunner.prober, tenants: app.tenants, clock }),
        logger,
      }),
    /**
     * The notifier Lambda's SQS batch handler; needs VIGIL_NOTIFY_QUEUE_URL, read at the first
     * invocation so that importing the function module (tests do) needs no queue.
     */
    notifierHandler() {
      let handler: ((event: unknown, context: Context) => Promise<SQSBatchResponse>) | undefined;
      return async (event: unknown, context: Context): Promise<SQSBatchResponse> => {
        handler ??= createSqsBatchHandler({
          queue: notifyQueue('the notifier sets retry delays there'),
          handle: (job) => app.notifier.handle(job),
          logger,
        });
        return handler(event, context);
      };
    },
    /**
     * The action worker Lambda's SQS batch handler; needs VIGIL_ACTION_QUEUE_URL, read at the first
     * invocation so that importing the function module (tests do) needs no queue.
     */
    actionWorkerHandler() {
      let handler: ((event: unknown, context: Context) => Promise<SQSBatchResponse>) | undefined;
      return async (event: unknown, context: Context): Promise<SQSBatchResponse> => {
        handler ??= createSqsBatchHandler({
          queue: actionQueue('the action worker sets retry delays there'),
          handle: (job) => app.actionWorker.handle(job),
          logger,
        });
        return handler(event, context);
      };
    },
  };
}
