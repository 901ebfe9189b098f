import type { CursorSeal } from '../store/cursor-seal.ts';
import { openPageCursor, sealPageCursor } from '../store/paging.ts';
import { type IndexName, type Item, MAX_QUERY_LIMIT, type Table } from '../store/table.ts';

/**
 * Newest-first pages of delivery records with filters applied as they are read. Unlike
 * lib/store/paging.ts, a page stops after MAX_SCANNED records whatever it kept, so a filter that
 * matches rarely costs a bounded read per request; the client follows `next_cursor` to read on.
 */

/** Records one page reads at most, kept or not. */
export const MAX_SCANNED = 1000;
const PREFIX = 'dlv_';

/** The partition a delivery list reads: the table's or an index's. */
export interface DeliveryPageSource {
  index?: IndexName;
  pk: string;
}

/**
 * Reads up to `limit` records `keep` accepts, newest first, scanning at most MAX_SCANNED; the
 * cursor (null exactly at the end) continues after the last record scanned.
 */
export async function readDeliveryPage(
  deps: { table: Table; cursors: CursorSeal },
  source: DeliveryPageSource,
  page: { limit: number; cursor?: string | undefined },
  keep: (item: Item) => boolean,
): Promise<{ items: Item[]; nextCursor: string | null }> {
  const kept: Item[] = [];
  let scanned = 0;
  let last: Item | undefined;
  let more = false;
  let cursor =
    page.cursor === undefined
      ? undefined
      : await openPageCursor(deps.cursors, page.cursor, { ...source, prefix: PREFIX });
  reading: do {
    const result = await deps.table.query({
      ...(source.index ? { index: source.index } : { consistent: true }),
      pk: source.pk,
      sk: { op: 'beginsWith', prefix: PREFIX },
      direction: 'desc',
      limit: Math.min(MAX_QUERY_LIMIT, page.limit - kept.length + 1, MAX_SCANNED - scanned + 1),
      cursor,
    });
    for (const item of result.items) {
      if (kept.length === page.limit || scanned === MAX_SCANNED) {
        more = true;
        break reading;
      }
      scanned += 1;
      last = item;
      if (keep(item)) kept.push(item);
    }
    cursor = result.cursor;
  } while (cursor);
  return {
    items: kept,
    nextCursor: more && last ? await sealPageCursor(deps.cursors, last, { ...source, prefix: PREFIX }) : null,
  };
}
