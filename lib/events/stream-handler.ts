import type { DynamoDBRecord } from 'aws-lambda';
import type { ChangeConsumer } from '../store/change-feed.ts';
import { dispatchChanges } from './dispatch.ts';
import { parseStreamRecord } from './stream-record.ts';

/**
 * The stream Lambda's record handler: one DynamoDB Streams record -> every change-feed consumer,
 * in order. A throw fails only this record (Powertools batch processing reports it), and the
 * source redelivers from there; consumers are idempotent.
 */
export function changeRecordHandler(consumers: ChangeConsumer[]) {
  return (record: DynamoDBRecord): Promise<void> => dispatchChanges([parseStreamRecord(record)], consumers);
}
