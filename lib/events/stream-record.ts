import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord, AttributeValue as LambdaAttributeValue } from 'aws-lambda';
import * as z from 'zod';
import type { Change } from '../store/change-feed.ts';
import { parseStoredItem } from '../store/item-schema.ts';
import type { Item } from '../store/table.ts';

function image(raw: Record<string, LambdaAttributeValue> | undefined): Item | undefined {
  if (!raw) return undefined;
  return parseStoredItem(unmarshall(raw as Record<string, AttributeValue>));
}

/** Parses one DynamoDB Streams record (NEW_AND_OLD_IMAGES) into a Change, for the stream Lambda. */
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
    // TTL deletions carry DynamoDB's service principal.
    expired: record.userIdentity?.principalId === 'dynamodb.amazonaws.com',
  };
}
