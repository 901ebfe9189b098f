import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context, DynamoDBStreamEvent } from 'aws-lambda';
import { createCloudBase } from '../lib/cloud/cloud-base.ts';
import { composeStreamFunction } from '../lib/cloud/stream-composition.ts';
import { batchRecordHandler, dispatchWholeBatch } from '../lib/events/stream-handler.ts';
import { loadConfig } from '../lib/platform/config.ts';
import type { ChangeConsumer } from '../lib/store/change-feed.ts';

/**
 * DynamoDB Streams -> change-feed consumers: those in `batched` once over the whole batch, the rest
 * record by record, entities concurrently, each in order; failed records are reported.
 */
export function createStreamHandler(deps: {
  consumers: ChangeConsumer[];
  batched?: readonly ChangeConsumer[];
  powertools: Logger;
}) {
  const processor = new BatchProcessor(EventType.DynamoDBStreams);
  const batched = deps.batched ?? [];
  const forBatch = batchRecordHandler(deps.consumers.filter((c) => !batched.includes(c)));
  const onError = (error: unknown) => deps.powertools.error('stream batch not fanned out', { error });
  return middy(
    async (event: DynamoDBStreamEvent, context: Context) =>
      (await dispatchWholeBatch(event.Records, batched, onError)) ??
      processPartialResponse(event, forBatch(event.Records), processor, { context, processInParallel: true }),
  ).use(injectLambdaContext(deps.powertools, { resetKeys: true }));
}

// Only the change consumers and the bus: no routes, no MCP, no console (lib/cloud/stream-composition.ts).
const cloud = composeStreamFunction(createCloudBase(loadConfig('cloud')));
export const handler = createStreamHandler({
  consumers: cloud.streamConsumers,
  batched: cloud.batchedConsumers,
  powertools: cloud.powertools,
});
