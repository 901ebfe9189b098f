import { randomUUID } from 'node:crypto';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import * as z from 'zod';
import type { Change } from '../store/change-feed.ts';
import { parseStoredItem } from '../store/item-schema.ts';
import type { Key } from '../store/table.ts';
import type { JsonObject } from './sqlite-records.ts';

/**
 * The sqlite engine's outbox rows: each holds one Change as JSON, its images the items as stored.
 * Rows written by earlier versions hold a DynamoDB Streams record instead (marshalled images);
 * `parseOutboxRecord` reads both, so changes still queued at an upgrade are delivered, not lost.
 */

export interface ChangeInput {
  key: Key;
  oldImage: JsonObject | undefined;
  newImage: JsonObject | undefined;
  /** A deletion by the TTL sweep. */
  expired?: boolean;
}

/** The outbox row text of one change. */
export function serializeChange(input: ChangeInput): string {
  const stored = {
    eventId: randomUUID().replaceAll('-', ''),
    eventName: !input.oldImage ? 'INSERT' : input.newImage ? 'MODIFY' : 'REMOVE',
    keys: { pk: input.key.pk, sk: input.key.sk },
    ...(input.newImage ? { newImage: input.newImage } : {}),
    ...(input.oldImage ? { oldImage: input.oldImage } : {}),
    expired: input.expired === true,
  };
  return JSON.stringify(stored);
}

const eventName = z.enum(['INSERT', 'MODIFY', 'REMOVE']);
const keysSchema = z.object({ pk: z.string(), sk: z.string() });
const attributes = z.record(z.string(), z.unknown());

const storedChange = z.object({
  eventId: z.string(),
  eventName,
  keys: keysSchema,
  newImage: z.unknown().optional(),
  oldImage: z.unknown().optional(),
  expired: z.boolean(),
});

/** The DynamoDB Streams record shape earlier versions wrote (kept only to drain old outboxes). */
const streamShapedRow = z.object({
  eventID: z.string().optional(),
  eventName,
  dynamodb: z.object({
    Keys: attributes.optional(),
    NewImage: attributes.optional(),
    OldImage: attributes.optional(),
  }),
  userIdentity: z.object({ principalId: z.string().optional() }).optional(),
});

const image = (raw: unknown) => (raw === undefined ? undefined : parseStoredItem(raw));
const fromAttributes = (raw: JsonObject | undefined) =>
  raw === undefined ? undefined : unmarshall(raw as Record<string, AttributeValue>);

/** Parses one outbox row: a Change, or a DynamoDB Streams record from an earlier version. */
export function parseOutboxRecord(text: string): Change {
  const raw: unknown = JSON.parse(text);
  if (typeof raw === 'object' && raw !== null && 'dynamodb' in raw) {
    const row = streamShapedRow.parse(raw);
    const newImage = image(fromAttributes(row.dynamodb.NewImage));
    const oldImage = image(fromAttributes(row.dynamodb.OldImage));
    return {
      eventId: row.eventID ?? '',
      eventName: row.eventName,
      keys: keysSchema.parse(newImage ?? oldImage ?? fromAttributes(row.dynamodb.Keys)),
      newImage,
      oldImage,
      expired: row.userIdentity?.principalId === 'dynamodb.amazonaws.com',
    };
  }
  const change = storedChange.parse(raw);
  return { ...change, newImage: image(change.newImage), oldImage: image(change.oldImage) };
}
