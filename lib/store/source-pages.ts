import { ValidationError } from '../platform/errors.ts';
import { decodeCursor, encodeCursor, positionOf } from './cursor.ts';
import type { CursorSeal } from './cursor-seal.ts';
import {
  openPageCursor,
  type PageDeps,
  type PageRequest,
  type PageSource,
  readNewestFirst,
} from './paging.ts';
import type { Item, SortKeyCondition } from './table.ts';

/**
 * One newest-first list read across several table partitions in turn (a check's results: its cell's
 * slots, then the cells it left, then its own items). Each source is a partition's items under a
 * prefix, optionally bounded to sort keys in [prefix + from, prefix + before), so sources of one
 * partition can hold disjoint spans of it. The client cursor is the position of the page's last
 * item, sealed once for the whole list: it opens only if it points into one of the sources (its
 * partition and its span), and the read resumes right after it, in that source, then the next.
 */

/** A source of the list: a PageSource (table partitions only) with an optional span. */
export interface SpanSource extends PageSource {
  /** Inclusive lower bound of the sort key after the prefix. */
  from?: string | undefined;
  /** Exclusive upper bound of the sort key after the prefix. */
  before?: string | undefined;
}

/** A page read across sources: each item with the index of the source it came from. */
export interface SourcesPage {
  items: { item: Item; source: number }[];
  nextCursor: string | null;
}

/** Characters above every character of the keys (they are ASCII): the top of a bounded span. */
const TOP = '\uffff';

function invalidCursor(): never {
  throw new ValidationError('invalid cursor', [{ path: 'cursor', message: 'is not a cursor of this list' }]);
}

/** Whether `sk` of partition `pk` is in `source`'s span. */
function holds(source: SpanSource, pk: string, sk: string): boolean {
  const span = sk.slice(source.prefix.length);
  return (
    source.pk === pk &&
    sk.startsWith(source.prefix) &&
    (source.from === undefined || span >= source.from) &&
    (source.before === undefined || span < source.before)
  );
}

/** The position of a cursor sealed for `source` alone, or undefined if it was not. */
async function legacyPosition(cursors: CursorSeal, cursor: string, source: PageSource) {
  try {
    return decodeCursor(await openPageCursor(cursors, cursor, source), undefined, source.pk);
  } catch (err) {
    if (err instanceof ValidationError) return undefined;
    throw err;
  }
}

/** Where a client cursor resumes: the source it points into and the store cursor within it. */
async function resumeAt(
  cursors: CursorSeal,
  list: string,
  sources: readonly SpanSource[],
  cursor: string,
): Promise<{ index: number; cursor: string }> {
  let position = await cursors.open(cursor, list);
  // A cursor sealed for one source's own list (a single-source page before lists of sources) still
  // opens, so clients paging across the change are not refused.
  for (const source of sources) {
    if (position) break;
    position = await legacyPosition(cursors, cursor, source);
  }
  const pk = position?.pk;
  const sk = position?.sk;
  if (!position || Object.keys(position).length !== 2 || pk === undefined || sk === undefined) {
    return invalidCursor();
  }
  const index = sources.findIndex((source) => holds(source, pk, sk));
  return index < 0 ? invalidCursor() : { index, cursor: encodeCursor({ pk, sk }) };
}

/** The sort-key condition of a source: its prefix, or its span's lower bound and the prefix's top. */
function keyCondition(source: SpanSource): SortKeyCondition {
  return source.from === undefined
    ? { op: 'beginsWith', prefix: source.prefix }
    : { op: 'between', low: `${source.prefix}${source.from}`, high: `${source.prefix}${TOP}` };
}

/**
 * Reads one page of the list `list` (what its cursors are sealed for) made of `sources` in order,
 * each newest first: up to `limit` items that `keep` accepts, and the cursor of the last when more
 * follow (in its source or a later one).
 */
export async function readSourcesPage(
  { table, cursors }: PageDeps,
  list: string,
  sources: readonly SpanSource[],
  page: PageRequest,
  keep: (item: Item, source: number) => boolean,
): Promise<SourcesPage> {
  const want = page.limit + 1;
  const kept: { item: Item; source: number }[] = [];
  const start = page.cursor === undefined ? undefined : await resumeAt(cursors, list, sources, page.cursor);
  for (let index = start?.index ?? 0; index < sources.length && kept.length < want; index += 1) {
    const source = sources[index];
    if (
      !source ||
      (source.from !== undefined && source.before !== undefined && source.before <= source.from)
    ) {
      continue;
    }
    // The span's upper bound is where the read starts: a position just above its newest item.
    const cursor =
      index === start?.index
        ? start.cursor
        : source.before === undefined
          ? undefined
          : encodeCursor({ pk: source.pk, sk: `${source.prefix}${source.before}` });
    const read = await readNewestFirst(
      table,
      { consistent: true, pk: source.pk, sk: keyCondition(source) },
      { want: want - kept.length, keep: (item) => keep(item, index), cursor },
    );
    kept.push(...read.map((item) => ({ item, source: index })));
  }
  const items = kept.slice(0, page.limit);
  const last = items.at(-1)?.item;
  const more = kept.length > page.limit && last !== undefined;
  return { items, nextCursor: more ? await cursors.seal(positionOf(last, undefined), list) : null };
}
