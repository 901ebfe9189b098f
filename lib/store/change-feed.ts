import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord, AttributeValue as LambdaAttributeValue } from 'aws-lambda';
import { z } from 'zod';
import { parseStoredItem } from './item-schema.ts';
import type { Item } from './table.ts';

/**
 * The change feed. Both sources produce DynamoDB Streams records (NEW_AND_OLD_IMAGES): DynamoDB
 * Streams in the cloud, the sqlite engine's outbox locally. One consumer interface handles both.
 */

export type ChangeEventName = 'INSERT' | 'MODIFY' | 'REMOVE';

/** A stream record, unmarshalled and parsed. */
export interface Change {
  eventId: string;
  eventName: ChangeEventName;
  keys: { pk: string; sk: string };
  newImage: Item | undefined;
  oldImage: Item | undefined;
  /** True for deletions made by TTL expiry (DynamoDB's service principal / the local sweeper). */
  expired: boolean;
}

/** Handles a batch of changes; throwing makes the source redeliver (consumers must be idempotent). */
export type ChangeConsumer = (changes: Change[]) => Promise<void>;

function image(raw: Record<string, LambdaAttributeValue> | undefined): Item | undefined {
  if (!raw) return undefined;
  return parseStoredItem(unmarshall(raw as Record<string, AttributeValue>));
}

/** Parses one DynamoDB Streams record (from either source) into a Change. */
export function parseStreamRecord(record: DynamoDBRecord): Change {
  const eventName = z.enum(['INSERT', 'MODIFY', 'REMOVE']).parse(record.eventName);
  const newImage = image(record.dynamodb?.NewImage);
  const oldImage = image(record.dynamodb?.OldImage);
  const keySource = newImage ?? oldImage;
  const keys = keySource
    ? { pk: keySource.pk, sk: keySource.sk }
    : z
        .object({ pk: z.string(), sk: z.string() })
        .parse(unmarshall((record.dynamodb?.Keys ?? {}) as Record<string, AttributeValue>));
  return {
    eventId: record.eventID ?? '',
    eventName,
    keys,
    newImage,
    oldImage,
    expired: record.userIdentity?.principalId === 'dynamodb.amazonaws.com',
  };
}
