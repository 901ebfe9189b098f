import { ValidationError } from '../platform/errors.ts';
import type { CursorSeal } from './cursor-seal.ts';
import {
  ConditionFailedError,
  type Item,
  type Key,
  MAX_QUERY_LIMIT,
  type SortKeyCondition,
  type Table,
  type WriteOp,
} from './table.ts';

/**
 * A tenant feed spread over a bounded number of partitions (issue 35: a tenant's mass outage must
 * not put all its writes on one key; DynamoDB gives a partition key at most 1,000 WCU/s). An item
 * goes to the shard its id hashes to (`<base>#<nn>`); the sort key stays the item's time-ordered id,
 * unique across shards, so a read merges the shards' queries by sort key (a k-way merge reading each
 * shard in small pages) and a position in the merged order is just a sort key.
 */

/** Shards of a tenant feed: 16 keys take a storm 16 times below one key's limit (docs/performance.md). */
export const FEED_SHARDS = 16;

/** The shard (`00`..`15`) of an id: FNV-1a of its text, so the same id always lands on the same shard. */
export function shardOf(id: string, shards = FEED_SHARDS): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i += 1) {
    hash ^= id.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return String(hash % shards).padStart(2, '0');
}

/** Every shard's partition key of the feed `base` (`<base>#00` .. `<base>#15`). */
export function shardPartitions(base: string, shards = FEED_SHARDS): string[] {
  return Array.from({ length: shards }, (_, i) => `${base}#${String(i).padStart(2, '0')}`);
}

/** One merged read: the partitions, the sort-key range (inclusive) and the bound to leave out. */
export interface MergedQuery {
  pks: readonly string[];
  low: string;
  high: string;
  /** A sort key not to return (a continuation's last item, or an exclusive range end). */
  exclude?: readonly string[];
  direction: 'asc' | 'desc';
  consistent?: boolean;
}

interface Lane {
  pk: string;
  buffer: Item[];
  cursor: string | undefined;
  done: boolean;
}

/**
 * Reads `query`'s partitions merged in sort-key order until `want` items are kept (`keep`) or all
 * are read (or `scan` items were looked at): `more` is true when items may follow the last returned.
 */
export async function readMerged(
  table: Table,
  query: MergedQuery,
  options: { want: number; keep?: (item: Item) => boolean; scan?: number },
): Promise<{ items: Item[]; more: boolean }> {
  const keep = options.keep ?? (() => true);
  const exclude = new Set(query.exclude ?? []);
  // Each shard holds about 1/n of the page: read a little more than that, then refill on demand.
  const batch = Math.min(MAX_QUERY_LIMIT, Math.ceil(options.want / query.pks.length) + 2);
  const lanes: Lane[] = query.pks.map((pk) => ({ pk, buffer: [], cursor: undefined, done: false }));
  const sk: SortKeyCondition = { op: 'between', low: query.low, high: query.high };
  const fill = async (lane: Lane) => {
    const page = await table.query({
      pk: lane.pk,
      sk,
      direction: query.direction,
      limit: batch,
      ...(query.consistent ? { consistent: true } : {}),
      ...(lane.cursor ? { cursor: lane.cursor } : {}),
    });
    lane.buffer.push(...page.items.filter((item) => !exclude.has(item.sk)));
    lane.cursor = page.cursor;
    lane.done = page.cursor === undefined;
  };
  const before = (a: Item, b: Item) => (query.direction === 'asc' ? a.sk < b.sk : a.sk > b.sk);
  const items: Item[] = [];
  let scanned = 0;
  for (;;) {
    await Promise.all(lanes.filter((l) => l.buffer.length === 0 && !l.done).map(fill));
    let next: Lane | undefined;
    for (const lane of lanes) {
      const head = lane.buffer[0];
      if (head && (!next?.buffer[0] || before(head, next.buffer[0]))) next = lane;
    }
    if (!next) return { items, more: false };
    const item = next.buffer.shift() as Item;
    scanned += 1;
    if (keep(item)) items.push(item);
    if (items.length === options.want || scanned === options.scan) {
      return { items, more: lanes.some((l) => l.buffer.length > 0 || !l.done) };
    }
  }
}

/** A paged newest-first list over a sharded feed, by the name its sealed cursors are bound to. */
export interface MergedPageSource {
  /** The list's name (its legacy single partition, so a cursor handed out before the shards still opens). */
  pk: string;
  pks: readonly string[];
  prefix: string;
}

const listOf = (source: MergedPageSource) => JSON.stringify(['table', source.pk, source.prefix]);

/**
 * One page of a sharded feed, newest first: up to `limit` items `keep` accepts and a sealed cursor
 * (the last item's sort key, under the list's name) when more follow. Consistent.
 */
export async function readMergedPage(
  deps: { table: Table; cursors: CursorSeal },
  source: MergedPageSource,
  page: { limit: number; cursor?: string | undefined },
  keep?: (item: Item) => boolean,
): Promise<{ items: Item[]; nextCursor: string | null }> {
  let high = `${source.prefix}\uffff`;
  if (page.cursor !== undefined) {
    const position = await deps.cursors.open(page.cursor, listOf(source));
    const sk = position?.sk;
    if (!position || position.pk !== source.pk || !sk?.startsWith(source.prefix)) {
      throw new ValidationError('invalid cursor', [
        { path: 'cursor', message: 'is not a cursor of this list' },
      ]);
    }
    high = sk;
  }
  const read = await readMerged(
    deps.table,
    { pks: source.pks, low: source.prefix, high, exclude: [high], direction: 'desc', consistent: true },
    // One more than the page: `next_cursor` is null exactly at the end.
    { want: page.limit + 1, ...(keep ? { keep } : {}) },
  );
  const items = read.items.slice(0, page.limit);
  const last = items.at(-1);
  const more = read.items.length > page.limit && last !== undefined;
  const nextCursor = more ? await deps.cursors.seal({ pk: source.pk, sk: last.sk }, listOf(source)) : null;
  return { items, nextCursor };
}

/**
 * Moves one item of a layout before the shards to its new key: `put` (conditioned on the new item
 * not existing) and the old item's delete in one transaction; when the put's condition fails (moved
 * before, or superseded), only the old item is deleted. True when it was moved now. Idempotent.
 */
async function relocate(table: Table, from: Key, put: WriteOp): Promise<boolean> {
  const remove: WriteOp = { type: 'delete', key: { pk: from.pk, sk: from.sk } };
  try {
    await table.transact([put, remove]);
    return true;
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
    await table.transact([remove]);
    return false;
  }
}

/**
 * Moves every item of the partition `pk` for which `target` gives a conditioned put (its new key),
 * page by page (see relocate); items it gives none for stay. Returns how many moved now.
 */
export async function relocatePartition(
  table: Table,
  pk: string,
  target: (item: Item) => WriteOp | undefined,
): Promise<number> {
  let moved = 0;
  let cursor: string | undefined;
  do {
    const page = await table.query({ pk, consistent: true, limit: 100, ...(cursor ? { cursor } : {}) });
    for (const item of page.items) {
      const put = target(item);
      if (put && (await relocate(table, item, put))) moved += 1;
    }
    cursor = page.cursor;
  } while (cursor);
  return moved;
}
