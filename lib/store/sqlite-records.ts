import { randomUUID } from 'node:crypto';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { Key } from './table.ts';

/** Builds the DynamoDB Streams records (NEW_AND_OLD_IMAGES) the sqlite engine writes to its outbox. */

export type JsonObject = Record<string, unknown>;

export interface ChangeInput {
  key: Key;
  oldImage: JsonObject | undefined;
  newImage: JsonObject | undefined;
  nowMs: number;
  /** A TTL deletion (DynamoDB marks those with its service principal). */
  expired?: boolean;
}

const marshallOptions = { removeUndefinedValues: true } as const;

/** The record as JSON text, without `SequenceNumber` (that is the outbox row's seq, added on read). */
export function serializeChange(input: ChangeInput): string {
  const eventName = !input.oldImage ? 'INSERT' : input.newImage ? 'MODIFY' : 'REMOVE';
  const keys = marshall({ pk: input.key.pk, sk: input.key.sk });
  const dynamodb = {
    ApproximateCreationDateTime: Math.floor(input.nowMs / 1000),
    Keys: keys,
    ...(input.newImage ? { NewImage: marshall(input.newImage, marshallOptions) } : {}),
    ...(input.oldImage ? { OldImage: marshall(input.oldImage, marshallOptions) } : {}),
    StreamViewType: 'NEW_AND_OLD_IMAGES',
  };
  const sizeBytes = Buffer.byteLength(JSON.stringify([dynamodb.Keys, input.newImage, input.oldImage]));
  return JSON.stringify({
    eventID: randomUUID().replaceAll('-', ''),
    eventName,
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: 'local',
    dynamodb: { ...dynamodb, SizeBytes: sizeBytes },
    ...(input.expired ? { userIdentity: { type: 'Service', principalId: 'dynamodb.amazonaws.com' } } : {}),
  });
}

/** The outbox seq as a DynamoDB-style sequence number: zero-padded so it sorts as text too. */
export function sequenceNumber(seq: number): string {
  return String(seq).padStart(21, '0');
}

/** Structural equality of two JSON values (object key order ignored). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => sameJson(v, b[i]))
    );
  }
  const aKeys = Object.keys(a);
  const bEntries = new Map(Object.entries(b));
  return (
    aKeys.length === bEntries.size &&
    Object.entries(a).every(([k, v]) => bEntries.has(k) && sameJson(v, bEntries.get(k)))
  );
}
