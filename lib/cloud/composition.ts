import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createApp } from '../app.ts';
import { systemClock } from '../platform/clock.ts';
import { type Config, loadConfig } from '../platform/config.ts';
import { createLogger } from '../platform/logger.ts';
import { createDynamoTable } from '../store/dynamodb-table.ts';

/** The cloud composition root: built once per Lambda container, at module scope. */
export function createCloudApp(config: Config = loadConfig('cloud')) {
  const logger = createLogger({ level: config.logLevel });
  const client = new DynamoDBClient({
    region: config.region,
    ...(config.dynamodbEndpoint ? { endpoint: config.dynamodbEndpoint } : {}),
  });
  const table = createDynamoTable({ client, tableName: config.tableName });
  const app = createApp({ table, clock: systemClock, logger, config });
  return { config, logger, table, app };
}
