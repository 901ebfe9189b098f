import type { DynamoDBRecord } from 'aws-lambda';
import type { ChangeConsumer } from '../store/change-feed.ts';
import { dispatchChanges } from './dispatch.ts';
import { inKeyOrder } from './ordered-records.ts';
import { parseStreamRecord } from './stream-record.ts';

/** Records of one stream batch processed at once (of different entities; lib/events/ordered-records.ts). */
const STREAM_CONCURRENCY = 16;

/**
 * The stream Lambda's record handler: one DynamoDB Streams record -> every change-feed consumer,
 * in order. A throw fails only this record (Powertools batch processing reports it), and the
 * source redelivers from there; consumers are idempotent.
 */
function changeRecordHandler(consumers: ChangeConsumer[]) {
  return (record: DynamoDBRecord): Promise<void> => dispatchChanges([parseStreamRecord(record)], consumers);
}

/**
 * The record handler of one stream batch: records of different entities concurrently (at most
 * `concurrency`), each entity's in the batch's order (lib/events/ordered-records.ts).
 */
export function batchRecordHandler(consumers: ChangeConsumer[], concurrency = STREAM_CONCURRENCY) {
  const onRecord = changeRecordHandler(consumers);
  return (records: readonly DynamoDBRecord[]) => inKeyOrder(records, onRecord, { concurrency });
}
