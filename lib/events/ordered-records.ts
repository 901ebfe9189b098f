import type { DynamoDBRecord } from 'aws-lambda';

/**
 * Concurrency inside one stream batch (issue 35: a tenant's mass outage is thousands of records on
 * a shard, and one at a time they took minutes to fan out). Records of different keys run
 * concurrently, at most `concurrency` at once; records of one key run one after another in the
 * batch's order, each starting when the one before it has settled (succeeded or failed: a failure
 * is reported for its record alone, as when the batch ran in sequence).
 */

/** What orders a stream record: its entity (a transition's `entity_id`), else its partition key. */
function recordOrderKey(record: DynamoDBRecord): string {
  const image = record.dynamodb?.NewImage ?? record.dynamodb?.OldImage;
  const entityId = image?.entity_id?.S;
  if (entityId) return `entity:${entityId}`;
  return `pk:${image?.pk?.S ?? record.dynamodb?.Keys?.pk?.S ?? ''}`;
}

/** A counting semaphore: `run` waits for one of `size` slots. */
function createLimit(size: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (active >= size) await new Promise<void>((resolve) => waiting.push(resolve));
    else active += 1;
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active -= 1;
    }
  };
}

/**
 * The per-record handler for one batch: `handle` runs for each of `records` in key order under the
 * concurrency bound, whatever order the batch processor calls it in.
 */
export function inKeyOrder(
  records: readonly DynamoDBRecord[],
  handle: (record: DynamoDBRecord) => Promise<void>,
  options: { concurrency: number; keyOf?: (record: DynamoDBRecord) => string },
): (record: DynamoDBRecord) => Promise<void> {
  const keyOf = options.keyOf ?? recordOrderKey;
  const limit = createLimit(options.concurrency);
  const after = new Map<DynamoDBRecord, Promise<unknown>>();
  const settled = new Map<DynamoDBRecord, () => void>();
  const tails = new Map<string, Promise<unknown>>();
  for (const record of records) {
    const key = keyOf(record);
    after.set(record, tails.get(key) ?? Promise.resolve());
    tails.set(key, new Promise<void>((resolve) => settled.set(record, resolve)));
  }
  return async (record) => {
    await after.get(record);
    try {
      await limit(() => handle(record));
    } finally {
      settled.get(record)?.();
    }
  };
}
