import { createHash } from 'node:crypto';
import * as z from 'zod';
import { childItems } from '../../store/child-items.ts';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import { tenantPk } from '../../store/partitions.ts';
import type { Table } from '../../store/table.ts';

/**
 * Owner of `page_subscriber` (DECISIONS.md "Status-page communication (wave 5)"): one address (or
 * webhook URL) subscribed to one status page, all of it or some of its entities. Its id is derived
 * from the page, the kind and the address (`psb_` + 26 hex of a SHA-256), so a page holds each
 * address once by construction and a subscribe finds it by one consistent get, never a scan; the
 * address itself is only in the item (never in a key, an index or a log line). It lives in its
 * tenant's partition under `PAGESUB#<slug>#<id>` (the owner's list) and in gsi1 under its page and
 * state (the notices read a page's confirmed subscribers a batch at a time).
 */

export const SUBSCRIBER_KINDS = ['email', 'webhook'] as const;
export const SUBSCRIBER_STATES = ['pending', 'confirmed', 'unsubscribed'] as const;
export type SubscriberState = (typeof SUBSCRIBER_STATES)[number];

/** The bounds of a page's subscribers (request schemas check them; the service refuses beyond). */
export const SUBSCRIBER_LIMITS = {
  perPage: 10_000,
  components: 200,
  address: 254,
  url: 2000,
} as const;

/** `psb_` and 26 hex digits. */
export const SUBSCRIBER_ID = /^psb_[0-9a-f]{26}$/;

const subscriberSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  /** The page's slug. */
  page: z.string(),
  kind: z.enum(SUBSCRIBER_KINDS),
  /** The address (lower-cased); for a webhook subscriber, the address that confirms it. */
  address: z.string(),
  /** A webhook subscriber's URL; null for email. */
  url: z.string().nullable(),
  /** SHA-256 (hex) of the lower-cased address. */
  address_hash: z.string(),
  components: z.union([z.literal('all'), z.array(z.string())]),
  state: z.enum(SUBSCRIBER_STATES),
  /** How it came: the public form, the tenant's import, the tenant's API. */
  source: z.enum(['public', 'import', 'api']),
  created_at: z.string(),
  updated_at: z.string(),
  confirmed_at: z.string().nullable(),
  /** The nonce of the confirmation link now valid (null: none); its link is derived from it (subscriber-links.ts). */
  confirm_nonce: z.string().nullable(),
  confirm_expires_at: z.string().nullable(),
  /** When the last confirmation link was issued (at most one per address and page per hour). */
  confirm_issued_at: z.string().nullable(),
  /** The nonce whose confirmation email went out (the job's claim: a redelivered job sends nothing). */
  confirm_mailed: z.string().nullable(),
  /** The nonce of the manage link (its one-click unsubscribe URL too). */
  manage_nonce: z.string(),
  /** Bumped by every write: a change holds only over the version it read. */
  version: z.number().int(),
});
export type SubscriberRecord = z.infer<typeof subscriberSchema>;

const pagePrefix = (slug: string) => `PAGESUB#${slug}#`;
const statePk = (tenantId: string, slug: string, state: SubscriberState) =>
  `PAGESUB#${tenantId}#${slug}#${state}`;

const subscriber = defineItem({
  type: itemType('page_subscriber'),
  schema: subscriberSchema,
  key: (k: { tenant_id: string; page: string; id: string }) => ({
    pk: tenantPk(k.tenant_id),
    sk: `${pagePrefix(k.page)}${k.id}`,
  }),
  gsi1: (r) => ({ pk: statePk(r.tenant_id, r.page, r.state), sk: r.id }),
  docKey: { tenant_id: '<tnt>', page: '<slug>', id: '<psb_id>' },
});

const children = childItems(subscriber, {
  key: (tenantId, page, id) => ({ tenant_id: tenantId, page, id }),
  prefix: pagePrefix,
});
/** One subscriber of the tenant's page (consistent), or undefined. */
export const getSubscriber = children.get;
/** The put of a new subscriber (`itemNotExists`: a concurrent subscribe of the same address loses). */
export const subscriberCreatedOp = children.createdOp;
/** The put of a changed subscriber over the version `readVersion` it was read at. */
export const subscriberReplacedOp = children.replacedOp;
/** The delete of one subscriber (`itemExists`). */
export const subscriberDeletedOp = children.deletedOp;
/** The deletes of up to `max` subscribers of a page (a page's delete takes its subscribers with it). */
export const subscribersDeletedOps = children.parentDeletedOps;
/** The subscriber of a change-feed image, or undefined for another item type. */
export const subscriberOfImage = children.ofImage;

/** SHA-256 (hex) of an address, lower-cased: what identifies it without showing it. */
export function addressHash(address: string): string {
  return createHash('sha256').update(address.toLowerCase()).digest('hex');
}

/** The id of a page's subscriber of this kind and address (or URL, for a webhook). */
export function subscriberId(tenantId: string, slug: string, kind: string, identity: string): string {
  const digest = createHash('sha256')
    .update(`${tenantId}\0${slug}\0${kind}\0${identity.toLowerCase()}`)
    .digest('hex');
  return `psb_${digest.slice(0, 26)}`;
}

/** A page of the page's subscribers by id (consistent), in one state or all; `after` is the last id shown. */
export async function listSubscribers(
  table: Table,
  tenantId: string,
  slug: string,
  page: { limit: number; after?: string | undefined; state?: SubscriberState | undefined },
): Promise<{ items: SubscriberRecord[]; next: string | null }> {
  const prefix = pagePrefix(slug);
  const after = page.after;
  const result = await table.query(
    page.state
      ? {
          index: 'gsi1',
          pk: statePk(tenantId, slug, page.state),
          ...(after ? { sk: { op: '>', value: after } } : {}),
          limit: page.limit + 1,
        }
      : {
          pk: tenantPk(tenantId),
          sk: after
            ? { op: 'between', low: `${prefix}${after}\0`, high: `${prefix}\uffff` }
            : { op: 'beginsWith', prefix },
          limit: page.limit + 1,
          consistent: true,
        },
  );
  const items = subscriber.parseAll(result.items);
  const shown = items.slice(0, page.limit);
  return { items: shown, next: items.length > page.limit ? (shown.at(-1)?.id ?? null) : null };
}

/** How many subscribers the page holds, up to `max` (the per-page bound). */
export async function countSubscribers(table: Table, tenantId: string, slug: string, max: number) {
  let count = 0;
  let cursor: string | undefined;
  do {
    const result = await table.query({
      pk: tenantPk(tenantId),
      sk: { op: 'beginsWith', prefix: pagePrefix(slug) },
      limit: 1000,
      ...(cursor ? { cursor } : {}),
    });
    count += result.items.length;
    cursor = result.cursor;
  } while (cursor && count < max);
  return count;
}
