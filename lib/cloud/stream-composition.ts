import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { artifactBucketStore } from '../checks/probing.ts';
import {
  batchedConsumers,
  type ChangeConsumers,
  composeChangeConsumers,
  consumerList,
} from '../events/consumers.ts';
import type { NotifyQueueJob } from '../features/list.ts';
import type { JobQueue } from '../platform/job-queue.ts';
import type { ChangeConsumer } from '../store/change-feed.ts';
import type { CloudBase } from './cloud-base.ts';
import { createEventBusPublisher } from './queues/event-bus.ts';
import { notifyQueueOf } from './queues/notify-queue.ts';

/**
 * The stream function's consumers: the app's change consumers (the same composeChangeConsumers
 * the app runs), then the bus publisher when a bus is configured.
 */
export function streamConsumersOf(base: CloudBase, consumers: ChangeConsumers): ChangeConsumer[] {
  const busName = base.config.eventBusName;
  if (!busName) return consumerList(consumers);
  const client = base.overrides.eventBridge ?? new EventBridgeClient({ region: base.config.region });
  return [...consumerList(consumers), createEventBusPublisher({ client, busName, logger: base.logger })];
}

/** The stream function: DynamoDB Streams -> the change consumers and the event bus; no routes. */
export function composeStreamFunction(
  base: CloudBase,
  { notifyQueue }: { notifyQueue: JobQueue<NotifyQueueJob> } = notifyQueueOf(base),
) {
  const { table, clock, logger } = base;
  const consumers = composeChangeConsumers({
    table,
    clock,
    logger,
    notifyQueue,
    actionQueue: base.actionQueue,
    // A deleted check's screenshots are deleted from the artifacts bucket with its partition purge.
    artifacts: artifactBucketStore(base.config, { s3: base.overrides.s3, traced: base.traced }),
  });
  return {
    powertools: base.powertools,
    consumers,
    streamConsumers: streamConsumersOf(base, consumers),
    batchedConsumers: batchedConsumers(consumers),
  };
}
