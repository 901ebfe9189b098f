import * as z from 'zod';
import { tenantItems } from '../../store/child-items.ts';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import { tenantItemKeys } from '../../store/partitions.ts';
import type { Table, WriteOp } from '../../store/table.ts';

/**
 * Owner of the calendar feeds (`oncall_feed`, DECISIONS.md "On-call (wave 5)": a schedule's or a
 * person's secret iCal URL). A feed is one item in the tenant partition under `ICALFEED#<icf_id>`
 * (listed with the tenant's feeds) and one lookup item keyed by the SHA-256 of its token
 * (`ICALTOKEN#<sha256>`, the only way from a presented URL to its feed), written and deleted
 * together in one transaction. Only the token's hash is stored, as for API keys.
 */

/** Feeds one tenant may keep (schedule and person feeds together); one more is 403 LIMIT_EXCEEDED. */
export const MAX_FEEDS_PER_TENANT = 200;
/** Feeds one schedule may have: its delete revokes them all in its own transaction (2 ops each). */
export const MAX_FEEDS_PER_SCHEDULE = 10;
/** Person feeds one member may have. */
export const MAX_PERSON_FEEDS_PER_USER = 5;

const feedSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  /** `schedule`: a schedule's final shifts; `person`: the shifts of `user_id` in every schedule. */
  kind: z.enum(['schedule', 'person']),
  schedule_id: z.string().nullable(),
  /** Who made it: an admin for a schedule feed, the person themselves for a person feed. */
  user_id: z.string(),
  label: z.string(),
  token_hash: z.string(),
  /** The token's first characters, to tell feeds apart (never enough to use one). */
  prefix: z.string(),
  created_at: z.string(),
});
export type FeedRecord = z.infer<typeof feedSchema>;

const PREFIX = 'ICALFEED#';

const feed = defineItem({
  type: itemType('oncall_feed'),
  schema: feedSchema,
  ...tenantItemKeys(PREFIX, '<icf_id>'),
});

/** A token's lookup: the feed's own record, under the token's hash. */
const feedLookup = defineItem({
  type: itemType('oncall_feed_lookup'),
  schema: feedSchema,
  key: (k: { token_hash: string }) => ({ pk: `ICALTOKEN#${k.token_hash}`, sk: 'LOOKUP' }),
  docKey: { token_hash: '<sha256 of token>' },
});

/** The feed a token's hash names (one consistent get), or undefined: unknown and revoked alike. */
export function findFeedByHash(table: Table, hash: string): Promise<FeedRecord | undefined> {
  return feedLookup.get(table, { token_hash: hash }, { consistent: true });
}

const feeds = tenantItems(feed, {
  key: (tenant_id: string, id: string) => ({ tenant_id, id }),
  prefix: PREFIX,
  maxPerTenant: MAX_FEEDS_PER_TENANT,
});

/** Every feed of the tenant, oldest first (ids are time-ordered); bounded by the per-tenant limit. */
export const listFeeds = (table: Table, tenantId: string): Promise<FeedRecord[]> =>
  feeds.list(table, tenantId);

/** The puts of a new feed and its token lookup (each must not exist yet). */
export function feedCreatedOps(record: FeedRecord): WriteOp[] {
  return [feed.put(record, { kind: 'itemNotExists' }), feedLookup.put(record, { kind: 'itemNotExists' })];
}

/** The deletes of a feed and its lookup: the feed must still be there (a second revoke fails). */
export function feedRevokedOps(record: FeedRecord): WriteOp[] {
  return [feed.delete(record, { kind: 'itemExists' }), feedLookup.delete(record)];
}

/** The deletes of feeds and their lookups, whether or not revoked meanwhile (their schedule's delete). */
export function feedsDeletedOps(records: FeedRecord[]): WriteOp[] {
  return records.flatMap((record) => [feed.delete(record), feedLookup.delete(record)]);
}
