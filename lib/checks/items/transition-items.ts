import * as z from 'zod';
import type { StateChangeEvent } from '../../domain/states.ts';
import { ValidationError } from '../../platform/errors.ts';
import type { Change } from '../../store/change-feed.ts';
import type { CursorSeal } from '../../store/cursor-seal.ts';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import type { PageSource } from '../../store/paging.ts';
import { checkPartition } from '../../store/partitions.ts';
import { readMerged, readMergedPage, shardOf, shardPartitions } from '../../store/sharded-feed.ts';
import type { Item, Table, WriteOp } from '../../store/table.ts';

/**
 * Owner of the `transition` items. A check's transitions (`kind: check`) live in its partition
 * (`TRN#<trn_id>`, purged with it); entity transitions, the tenant's incident feed, live in the
 * tenant's transition feed so they outlive a deleted check: 16 shards (`TRN#<tnt>#<nn>`, the shard
 * the entity id hashes to, sort key the id: store/sharded-feed.ts), so a tenant's mass outage spreads its
 * writes over 16 keys. Reads merge the shards and the single partition the feed had before
 * (`TRN#<tnt>`): its transitions are on the change feed, so moving them would send them again;
 * they expire with results, and that partition is empty after the retention period. Both expire.
 */

export const transitionSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  kind: z.enum(['check', 'entity']),
  entity_id: z.string(),
  entity_name: z.string(),
  /** The entity's address (absent on transitions recorded before it was kept). */
  blueprint_slug: z.string().optional(),
  entity_slug: z.string().optional(),
  check_id: z.string(),
  from_state: z.enum(['unknown', 'up', 'down', 'degraded']),
  to_state: z.enum(['unknown', 'up', 'down', 'degraded']),
  reason: z.string(),
  created_at: z.string(),
});
export type TransitionRecord = z.infer<typeof transitionSchema>;

const TYPE = itemType('transition');

/** Transitions expire with results, `retentionDays` after they happened. */
const expiry = (t: TransitionRecord, retentionDays: number) =>
  Math.floor(Date.parse(t.created_at) / 1000) + retentionDays * 86_400;
const tenantTransitionsPk = (tenantId: string) => `TRN#${tenantId}`;
/** Every partition of the tenant's feed: its shards, then the legacy single partition. */
const feedPartitions = (tenantId: string) => [
  ...shardPartitions(tenantTransitionsPk(tenantId)),
  tenantTransitionsPk(tenantId),
];

const checkTransition = defineItem({
  type: TYPE,
  schema: transitionSchema,
  key: (k: { check_id: string; id: string }) => ({ pk: checkPartition(k.check_id), sk: `TRN#${k.id}` }),
  ttl: (r, c: { retentionDays: number }) => expiry(r, c.retentionDays),
  docKey: { check_id: '<chk_id>', id: '<trn_id>' },
});

const entityTransition = defineItem({
  type: TYPE,
  schema: transitionSchema,
  key: (k: { tenant_id: string; id: string; shard: string }) => ({
    pk: `${tenantTransitionsPk(k.tenant_id)}#${k.shard}`,
    sk: k.id,
  }),
  // By entity: one entity's transitions share a key, so DynamoDB Streams keeps their order.
  keyOf: (r) => ({ tenant_id: r.tenant_id, id: r.id, shard: shardOf(r.entity_id) }),
  ttl: (r, c: { retentionDays: number }) => expiry(r, c.retentionDays),
  docKey: { tenant_id: '<tnt>', id: '<trn_id>', shard: '<shard>' },
});

/** The state-change event of SPEC.md "Events" for an entity transition: what streams, webhooks, NATS and the bus carry. */
export function stateChangeEvent(t: TransitionRecord): StateChangeEvent {
  return {
    entity_id: t.entity_id,
    entity_name: t.entity_name,
    check_id: t.check_id,
    tenant_id: t.tenant_id,
    from_state: t.from_state,
    to_state: t.to_state,
    transition_id: t.id,
    timestamp: t.created_at,
  };
}

/** The `entity` of transition items, for change-feed filters. */
export const TRANSITION_ENTITY = TYPE.entity;

/** The put of a transition, expiring with results after `retentionDays`. */
export function transitionRecordedOp(transition: TransitionRecord, retentionDays: number): WriteOp {
  return transition.kind === 'entity'
    ? entityTransition.put(transition, undefined, { retentionDays })
    : checkTransition.put(transition, undefined, { retentionDays });
}

/** One entity transition by its id (consistent), or undefined once it expired. */
export function readEntityTransition(
  table: Table,
  tenantId: string,
  entityId: string,
  id: string,
): Promise<TransitionRecord | undefined> {
  return entityTransition.get(
    table,
    { tenant_id: tenantId, id, shard: shardOf(entityId) },
    { consistent: true },
  );
}

/** A transition item read through one of the pages below, or from the change feed. */
export function parseTransition(item: Item): TransitionRecord {
  return transitionSchema.parse(item);
}

/** A check's newest transition (consistent), or undefined: why the check is in the state it is in. */
export async function latestCheckTransition(
  table: Table,
  checkId: string,
): Promise<TransitionRecord | undefined> {
  const read = await table.query({
    pk: checkPartition(checkId),
    sk: { op: 'beginsWith', prefix: 'TRN#' },
    direction: 'desc',
    limit: 1,
    consistent: true,
  });
  return checkTransition.parseAll(read.items)[0];
}

/** The paged list of a check's own transitions, newest first (for sealed cursors). */
export function checkTransitionsSource(checkId: string): PageSource {
  return { pk: checkPartition(checkId), prefix: 'TRN#' };
}

/** A page of the tenant's entity transitions, newest first, over every shard (sealed cursors). */
export function tenantTransitionsPage(
  deps: { table: Table; cursors: CursorSeal },
  tenantId: string,
  page: { limit: number; cursor?: string | undefined },
  keep?: (item: Item) => boolean,
) {
  const source = { pk: tenantTransitionsPk(tenantId), pks: feedPartitions(tenantId), prefix: 'trn_' };
  return readMergedPage(deps, source, page, keep);
}

/**
 * One page of the tenant's entity transitions whose id (sort key) is in `range`, strongly
 * consistent, merged over the shards; `cursor` (the last id returned) continues it.
 */
export async function tenantTransitionItems(
  table: Table,
  tenantId: string,
  input: {
    range: { after: string } | { from: string; to: string };
    direction: 'asc' | 'desc';
    limit: number;
    cursor?: string | undefined;
  },
): Promise<{ items: Item[]; cursor: string | undefined }> {
  const { range, cursor } = input;
  let low = 'after' in range ? range.after : range.from;
  let high = 'after' in range ? '\uffff' : range.to;
  const exclude = 'after' in range ? [range.after] : [];
  if (cursor !== undefined) {
    // Ids are text: the continuation narrows the range on the side the read moves towards.
    if (input.direction === 'asc' && cursor > low) low = cursor;
    if (input.direction === 'desc' && cursor < high) high = cursor;
    exclude.push(cursor);
  }
  if (low > high) return { items: [], cursor: undefined };
  const read = await readMerged(
    table,
    { pks: feedPartitions(tenantId), low, high, exclude, direction: input.direction, consistent: true },
    { want: input.limit },
  );
  const last = read.items.at(-1);
  return { items: read.items, cursor: read.more && last ? last.sk : undefined };
}

/**
 * The state-change event (SPEC.md "Events") of a stored entity transition (a change-feed image), or
 * undefined for any other item: what the notify and action consumers turn into jobs.
 */
function entityTransitionEvent(item: Item): StateChangeEvent | undefined {
  if (item.entity !== TRANSITION_ENTITY) return undefined;
  const parsed = transitionSchema.safeParse(item);
  if (!parsed.success || parsed.data.kind !== 'entity') return undefined;
  return stateChangeEvent(parsed.data);
}

/** The state-change event of a new entity transition on the change feed, or undefined for other changes. */
export function stateChangeEventOf(change: Change): StateChangeEvent | undefined {
  const item = change.newImage;
  if (change.eventName !== 'INSERT' || !item) return undefined;
  return entityTransitionEvent(item);
}

/** Feed items one filtered page looks at, at most: a filtered page is bounded even when few items match. */
const FILTERED_FEED_SCAN = 1000;

/**
 * A page of the tenant's entity transitions that `keep` accepts, newest first. With `entityId`
 * only the shard that entity hashes to (and the legacy partition) is read. At most
 * FILTERED_FEED_SCAN items are looked at: a page can hold fewer than `limit` transitions and still
 * have a `nextCursor` (from the last item looked at), so a feed mostly filtered out stays cheap.
 */
export async function filteredTransitionsPage(
  deps: { table: Table; cursors: CursorSeal },
  tenantId: string,
  filter: { entityId?: string | undefined; name: string },
  page: { limit: number; cursor?: string | undefined },
  keep: (item: Item) => boolean,
): Promise<{ items: Item[]; nextCursor: string | null }> {
  const base = tenantTransitionsPk(tenantId);
  const pks = filter.entityId ? [`${base}#${shardOf(filter.entityId)}`, base] : feedPartitions(tenantId);
  // The cursor is bound to the filter: one of another filter (or of the plain feed) is refused.
  const list = JSON.stringify(['transitions', base, filter.name]);
  let high = 'trn_\uffff';
  if (page.cursor !== undefined) {
    const position = await deps.cursors.open(page.cursor, list);
    if (!position || position.pk !== base || !position.sk?.startsWith('trn_')) {
      throw new ValidationError('invalid cursor', [
        { path: 'cursor', message: 'is not a cursor of this list' },
      ]);
    }
    high = position.sk;
  }
  const read = await readMerged(
    deps.table,
    { pks, low: 'trn_', high, exclude: [high], direction: 'desc', consistent: true },
    { want: FILTERED_FEED_SCAN },
  );
  const items: Item[] = [];
  let last: Item | undefined;
  for (const item of read.items) {
    if (keep(item)) {
      if (items.length === page.limit) {
        // One more matched than the page: continue after the page's last item.
        return { items, nextCursor: await deps.cursors.seal({ pk: base, sk: String(last?.sk) }, list) };
      }
      items.push(item);
    }
    last = item;
  }
  const scanned = read.items.at(-1);
  const more = read.more && scanned !== undefined;
  return {
    items,
    nextCursor: more ? await deps.cursors.seal({ pk: base, sk: String(scanned.sk) }, list) : null,
  };
}
