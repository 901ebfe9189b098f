import { ValidationError } from '../platform/errors.ts';
import { encodeCursor, indexKeyNames, positionAttrs, positionOf } from '../store/cursor.ts';
import type { CursorSeal } from '../store/cursor-seal.ts';
import { type IndexName, type Item, MAX_QUERY_LIMIT, type Table } from '../store/table.ts';

/**
 * Newest-first pages of delivery records with filters applied as they are read. Unlike
 * lib/checks/paging.ts, a page stops after MAX_SCANNED records whatever it kept, so a filter that
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

function invalidCursor(): never {
  throw new ValidationError('invalid cursor', [{ path: 'cursor', message: 'is not a cursor of this list' }]);
}

const listOf = (source: DeliveryPageSource) => JSON.stringify([source.index ?? 'table', source.pk, PREFIX]);

/** The store cursor of a client cursor sealed for `source`, pointing into its partition. */
async function storeCursor(cursors: CursorSeal, cursor: string, source: DeliveryPageSource): Promise<string> {
  const position = await cursors.open(cursor, listOf(source));
  if (!position) return invalidCursor();
  const attrs = positionAttrs(source.index);
  const names = indexKeyNames(source.index);
  const fits =
    Object.keys(position).length === attrs.length &&
    attrs.every((attr) => position[attr] !== undefined) &&
    position[names.pk] === source.pk &&
    (position[names.sk] ?? '').startsWith(PREFIX);
  return fits ? encodeCursor(position) : invalidCursor();
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
  let cursor = page.cursor === undefined ? undefined : await storeCursor(deps.cursors, page.cursor, source);
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
    nextCursor: more && last ? await deps.cursors.seal(positionOf(last, source.index), listOf(source)) : null,
  };
}
