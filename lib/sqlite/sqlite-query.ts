import { decodeCursor, indexKeyNames } from '../store/cursor.ts';
import type { QueryInput, SortKeyCondition } from '../store/table.ts';

/** Builds the SELECT for a Table query: every predicate is a range on an index, never LIKE. */

export interface SqlQuery {
  sql: string;
  params: (string | number)[];
}

/** The smallest string greater than every string starting with `prefix` (code-point order = UTF-8 byte order). */
function prefixUpperBound(prefix: string): string | undefined {
  const points = Array.from(prefix, (ch) => ch.codePointAt(0) ?? 0);
  while (points.length > 0) {
    const last = (points.pop() ?? 0) + 1;
    if (last <= 0x10ffff) {
      // Surrogate code points are not valid text; the next scalar value after them is U+E000.
      points.push(last >= 0xd800 && last <= 0xdfff ? 0xe000 : last);
      return String.fromCodePoint(...points);
    }
  }
  return undefined;
}

function sortKeyPredicate(column: string, sk: SortKeyCondition): SqlQuery {
  switch (sk.op) {
    case 'between':
      return { sql: `${column} >= ? AND ${column} <= ?`, params: [sk.low, sk.high] };
    case 'beginsWith': {
      const upper = prefixUpperBound(sk.prefix);
      return upper === undefined
        ? { sql: `${column} >= ?`, params: [sk.prefix] }
        : { sql: `${column} >= ? AND ${column} < ?`, params: [sk.prefix, upper] };
    }
    default:
      return { sql: `${column} ${sk.op} ?`, params: [sk.value] };
  }
}

/**
 * SELECT data for one page (fetches `limit + 1` rows so the caller knows whether more follow).
 *
 * The statement is prepared once and run with new values: `= ? COLLATE BINARY` (the columns'
 * own collation, so the same comparison and index) and `LIMIT +?` keep SQLite (3.54) from
 * reading the bound partition key and limit while planning, which marks the statement to be
 * prepared again whenever they are bound anew: every run, and better-sqlite3 compiles a new
 * row function each time (test/store/sqlite-reprepare.test.ts).
 */
export function buildQuery(input: QueryInput, limit: number): SqlQuery {
  const names = indexKeyNames(input.index);
  const desc = input.direction === 'desc';
  const where = [`${names.pk} = ? COLLATE BINARY`];
  const params: (string | number)[] = [input.pk];
  if (input.sk) {
    const predicate = sortKeyPredicate(names.sk, input.sk);
    where.push(predicate.sql);
    params.push(...predicate.params);
  }
  // On a GSI several items may share a sort key; the table key breaks ties, as in the index.
  const order = input.index ? [names.sk, 'pk', 'sk'] : ['sk'];
  if (input.cursor) {
    const position = decodeCursor(input.cursor, input.index, input.pk);
    where.push(`(${order.join(', ')}) ${desc ? '<' : '>'} (${order.map(() => '?').join(', ')})`);
    params.push(...order.map((attr) => position[attr] ?? ''));
  }
  const direction = desc ? 'DESC' : 'ASC';
  return {
    sql: `SELECT data FROM items WHERE ${where.join(' AND ')} ORDER BY ${order.map((c) => `${c} ${direction}`).join(', ')} LIMIT +?`,
    params: [...params, limit + 1],
  };
}
