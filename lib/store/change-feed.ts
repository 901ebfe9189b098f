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

/**
 * An entity whose changes reach an outbox (the sqlite engine's): every change of it (its name), or
 * only a change that gives it a new gsi2 sort key (`{ entity, gsi2Moves: true }`): an item that
 * enters a change index under a fresh id when something worth telling happened (lib/incidents'
 * INCCHG entries), so its other writes cost no outbox record.
 */
export type StreamedEntity = string | { entity: string; gsi2Moves: true };
