import type { DynamoDBRecord } from 'aws-lambda';
import { type ChangeConsumer, parseStreamRecord } from '../store/change-feed.ts';

/**
 * The stream Lambda's record handler: one DynamoDB Streams record -> every change-feed consumer,
 * in order. A throw fails only this record (Powertools batch processing reports it), and the
 * source redelivers from there; consumers are idempotent.
 */
export function changeRecordHandler(consumers: ChangeConsumer[]) {
  return async (record: DynamoDBRecord): Promise<void> => {
    const changes = [parseStreamRecord(record)];
    for (const consume of consumers) await consume(changes);
  };
}
