import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { createApp } from '../app.ts';
import { systemClock } from '../platform/clock.ts';
import { type Config, loadConfig } from '../platform/config.ts';
import { createLogger } from '../platform/logger.ts';
import { createDynamoTable } from '../store/dynamodb-table.ts';
import { createGenerator } from './generator.ts';
import { createGeneratorHandler } from './generator-handler.ts';
import { createWorkerHandler } from './worker.ts';

/** The cloud composition root: built once per Lambda container, at module scope. */
export function createCloudApp(config: Config = loadConfig('cloud')) {
  const logger = createLogger({ level: config.logLevel });
  const client = new DynamoDBClient({
    region: config.region,
    ...(config.dynamodbEndpoint ? { endpoint: config.dynamodbEndpoint } : {}),
  });
  const table = createDynamoTable({ client, tableName: config.tableName });
  const clock = systemClock;
  const app = createApp({ table, clock, logger, config });
  // Creating a client opens nothing; only the generator sends.
  const sqs = new SQSClient({ region: config.region });
  return {
    config,
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
