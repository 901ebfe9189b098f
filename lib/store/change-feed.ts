import type { Item } from './table.ts';

/**
 * The change feed: plain Changes, the items as stored. Two sources: the sqlite engine's outbox
 * locally, and DynamoDB Streams in the cloud, whose records the stream Lambda converts
 * (lib/events/stream-record.ts). One consumer interface handles both.
 */

type ChangeEventName = 'INSERT' | 'MODIFY' | 'REMOVE';

/** One write to one item, with its images before and after. */
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
