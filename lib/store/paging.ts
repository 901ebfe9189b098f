import { ValidationError } from '../platform/errors.ts';
import { encodeCursor, indexKeyNames, positionAttrs, positionOf } from './cursor.ts';
import type { CursorSeal } from './cursor-seal.ts';
import { type IndexName, type Item, MAX_QUERY_LIMIT, type QueryInput, type Table } from './table.ts';

/**
 * Paged, newest-first reads of one partition (results, transitions). The cursor handed to clients
 * is the position of the last item of the page, sealed for the list it belongs to (store/cursor-seal.ts),
 * so `next_cursor` is null exactly at the end, and a cursor that was tampered with or belongs to
 * another list is refused before it reaches the store (400, never 500 or another list's items).
 */

export const DEFAULT_PAGE_SIZE = 50;

export interface PageRequest {
  limit: number;
  cursor?: string | undefined;
}

/** The partition (of the table or gsi1) a paged list reads, and the sort-key prefix of its items. */
export interface PageSource {
  index?: IndexName;
  pk: string;
  prefix: string;
  /** What else the cursor is bound to (such as the tenant, when `pk` alone does not name it). */
  scope?: string;
}

export interface Page {
  items: Item[];
  nextCursor: string | null;
}

/** What a paged read needs: the table and the seal of client cursors. */
export interface PageDeps {
  table: Table;
  cursors: CursorSeal;
}

function invalidCursor(): never {
  throw new ValidationError('invalid cursor', [{ path: 'cursor', message: 'is not a cursor of this list' }]);
}

/** The sealed cursor's associated data: the list it pages. */
function listOf(source: PageSource): string {
  const list = [source.index ?? 'table', source.pk, source.prefix];
  return JSON.stringify(source.scope === undefined ? list : [...list, source.scope]);
}

/** The client cursor that continues `source` after `last`: its position, sealed for the list. */
export function sealPageCursor(cursors: CursorSeal, last: Item, source: PageSource): Promise<string> {
  return cursors.seal(positionOf(last, source.index), listOf(source));
}

/** The store cursor for a client cursor, after checking it was sealed for `source` and points into it. */
export async function openPageCursor(
  cursors: CursorSeal,
  cursor: string,
  source: PageSource,
): Promise<string> {
  const position = await cursors.open(cursor, listOf(source));
  if (!position) return invalidCursor();
  const attrs = positionAttrs(source.index);
  const names = indexKeyNames(source.index);
  const fits =
    Object.keys(position).length === attrs.length &&
    attrs.every((attr) => position[attr] !== undefined) &&
    position[names.pk] === source.pk &&
    (position[names.sk] ?? '').startsWith(source.prefix);
  return fits ? encodeCursor(position) : invalidCursor();
}

/**
 * Reads `query` newest first from `cursor` (a store cursor), reading on past items `keep` rejects,
 * until `want` items are kept or the query ends.
 */
export async function readNewestFirst(
  table: Table,
  query: Omit<QueryInput, 'direction' | 'limit' | 'cursor'>,
  options: { want: number; keep: (item: Item) => boolean; cursor: string | undefined },
): Promise<Item[]> {
  const kept: Item[] = [];
  let cursor = options.cursor;
  do {
    const result = await table.query({
      ...query,
      direction: 'desc',
      limit: Math.min(MAX_QUERY_LIMIT, options.want - kept.length),
      cursor,
    });
    for (const item of result.items) {
      if (kept.length < options.want && options.keep(item)) kept.push(item);
    }
    cursor = result.cursor;
  } while (kept.length < options.want && cursor);
  return kept;
}

/**
 * Reads one page, newest first: up to `limit` items that `keep` accepts (reading on past rejected
 * ones), and the cursor of the last when more follow.
 */
export async function readPage(
  { table, cursors }: PageDeps,
  source: PageSource,
  page: PageRequest,
  keep: (item: Item) => boolean = () => true,
): Promise<Page> {
  const want = page.limit + 1;
  const cursor = page.cursor === undefined ? undefined : await openPageCursor(cursors, page.cursor, source);
  const kept = await readNewestFirst(
    table,
    {
      ...(source.index ? { index: source.index } : { consistent: true }),
      pk: source.pk,
      sk: { op: 'beginsWith', prefix: source.prefix },
    },
    { want, keep, cursor },
  );
  const items = kept.slice(0, page.limit);
  const last = items.at(-1);
  const more = kept.length > page.limit && last !== undefined;
  return {
    items,
    nextCursor: more ? await sealPageCursor(cursors, last, source) : null,
  };
}

/** Keeps items whose `ttl` has not passed (TTL deletion is lazy). */
export function unexpired(nowMs: number): (item: Item) => boolean {
  const nowSeconds = Math.floor(nowMs / 1000);
  return (item) => item.ttl === undefined || item.ttl > nowSeconds;
}

/**
 * One page of `source`, newest first, keeping the items `keep` accepts: it stops once `limit` are
 * kept or `maxScanned` were read, whichever comes first, so a filter that matches little still
 * costs a bounded read; `nextCursor` (null exactly at the end) reads on after the last item scanned.
 */
export async function readScannedPage(
  deps: PageDeps,
  source: PageSource,
  request: {
    sk: QueryInput['sk'];
    limit: number;
    cursor?: string | undefined;
    maxScanned: number;
    keep(item: Item): boolean;
  },
): Promise<{ items: Item[]; nextCursor: string | null }> {
  const kept: Item[] = [];
  let scanned = 0;
  let last: Item | undefined;
  let more = false;
  let cursor =
    request.cursor === undefined ? undefined : await openPageCursor(deps.cursors, request.cursor, source);
  reading: do {
    const result = await deps.table.query({
      ...(source.index ? { index: source.index } : { consistent: true }),
      pk: source.pk,
      sk: request.sk,
      direction: 'desc',
      limit: Math.min(MAX_QUERY_LIMIT, request.limit - kept.length + 1, request.maxScanned - scanned + 1),
      cursor,
    });
    for (const item of result.items) {
      if (kept.length === request.limit || scanned === request.maxScanned) {
        more = true;
        break reading;
      }
      scanned += 1;
      last = item;
      if (request.keep(item)) kept.push(item);
    }
    cursor = result.cursor;
  } while (cursor);
  return { items: kept, nextCursor: more && last ? await sealPageCursor(deps.cursors, last, source) : null };
}

/**
 * One list of a partition (`source`, table only) read newest first strictly below the sort key
 * `below` ('' from the newest), for a page merged from several lists: up to `want.keep` items
 * `keep` accepts, scanning at most `want.scan`; `scanned` is every item looked at, in order, and
 * `exhausted` says the list has no more (otherwise at least one more item follows).
 */
export async function readListBelow(
  table: Table,
  source: Pick<PageSource, 'pk' | 'prefix'>,
  below: string,
  want: { keep: number; scan: number },
  keep: (item: Item) => boolean,
): Promise<{ kept: Item[]; scanned: Item[]; exhausted: boolean }> {
  const kept: Item[] = [];
  const scanned: Item[] = [];
  let cursor: string | undefined;
  do {
    const page = await table.query({
      pk: source.pk,
      sk: below
        ? { op: 'between', low: source.prefix, high: below }
        : { op: 'beginsWith', prefix: source.prefix },
      direction: 'desc',
      consistent: true,
      limit: Math.min(MAX_QUERY_LIMIT, want.scan - scanned.length + 1),
      cursor,
    });
    for (const item of page.items) {
      if (item.sk === below) continue;
      if (kept.length === want.keep || scanned.length === want.scan)
        return { kept, scanned, exhausted: false };
      scanned.push(item);
      if (keep(item)) kept.push(item);
    }
    cursor = page.cursor;
  } while (cursor);
  return { kept, scanned, exhausted: true };
}
