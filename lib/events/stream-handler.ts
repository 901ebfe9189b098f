import type { DynamoDBBatchResponse, DynamoDBRecord } from 'aws-lambda';
import type { Change, ChangeConsumer } from '../store/change-feed.ts';
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

/**
 * The whole-batch phase of the stream function: `consumers` (the ones that only enqueue jobs) get
 * every change of the batch at once, in the batch's order, as the local change pump hands them its
 * batches: a batch's jobs go out in a few SendMessageBatch calls and their per-tenant reads happen
 * once, not once per record. A record that does not parse is left to the per-record phase, which
 * reports it alone. When a consumer throws, the answer reports the batch from its first record
 * (the source redelivers all of it: the consumers are idempotent, their job ids dedupe); undefined
 * when they all succeeded.
 */
export async function dispatchWholeBatch(
  records: readonly DynamoDBRecord[],
  consumers: readonly ChangeConsumer[],
  onError: (error: unknown) => void,
): Promise<DynamoDBBatchResponse | undefined> {
  const first = records[0]?.dynamodb?.SequenceNumber;
  if (consumers.length === 0 || first === undefined) return undefined;
  const changes = records.flatMap((record): Change[] => {
    try {
      return [parseStreamRecord(record)];
    } catch {
      return [];
    }
  });
  try {
    await dispatchChanges(changes, [...consumers]);
    return undefined;
  } catch (error) {
    onError(error);
    return { batchItemFailures: [{ itemIdentifier: first }] };
  }
}
