import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { createApp } from '../app.ts';
import { createStoreRateLimiter } from '../auth/rate-limit-items.ts';
import { type Clock, systemClock } from '../platform/clock.ts';
import { type Config, loadConfig } from '../platform/config.ts';
import { createDynamoTable } from '../store/dynamodb-table.ts';
import { createGenerator } from './generator.ts';
import { createGeneratorHandler } from './generator-handler.ts';
import { createPowertoolsLogger, fromPowertools } from './lambda-edge.ts';
import { createWorkerHandler } from './worker.ts';

/** What tests replace in the cloud composition; a deployment passes nothing. */
export interface CloudOverrides {
  /** A DynamoDB client of the test's own (DynamoDB Local). */
  dynamodb?: DynamoDBClient;
  clock?: Clock;
  /** Where the Powertools logger writes its JSON lines (default stdout). */
  logWrite?: (line: string) => void;
}

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
  // Rate limits hold across Lambda instances: every instance counts in the same table items.
  const app = createApp({
    table,
    clock,
    logger,
    config,
    rateLimiter: createStoreRateLimiter({ table, clock }),
  });
  // Creating a client opens nothing; only the generator sends.
  const sqs = new SQSClient({ region: config.region });
  return {
    config,
    /** The Powertools logger the edges hand to `injectLambdaContext`; `logger` writes through it. */
    powertools,
    logger,
    table,
    app,
    sqs,
    /** The generator Lambda's handler; needs VIGIL_PROBE_QUEUE_URL. */
    generatorHandler() {
      const queueUrl = config.probeQueueUrl;
      if (!queueUrl) throw new Error('VIGIL_PROBE_QUEUE_URL is not set (the generator enqueues there)');
      const generator = createGenerator({ table, sqs, queueUrl, clock, dueShards: config.dueShards, logger });
      return createGeneratorHandler({ generator, clock, logger });
    },
    /** The probe worker Lambda's handler. */
    workerHandler: () => createWorkerHandler({ jobRunner: app.jobRunner, logger }),
  };
}
