import type { DynamoDBRecord } from 'aws-lambda';
import { type Change, type ChangeConsumer, parseStreamRecord } from '../store/change-feed.ts';

/** Hands one batch of stream records to every consumer, in order; a throw makes the source redeliver. */
export async function dispatchRecords(records: DynamoDBRecord[], consumers: ChangeConsumer[]): Promise<void> {
  const changes: Change[] = records.map(parseStreamRecord);
  if (changes.length === 0) return;
  for (const consume of consumers) await consume(changes);
}
