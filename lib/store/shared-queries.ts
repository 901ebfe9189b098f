import type { QueryInput, QueryPage, Table } from './table.ts';

/**
 * A view of `table` whose identical queries are made once, for the length of one request: the
 * checks of one cell shown on a page all read their cell's items with the same query.
 */
export function sharingQueries(table: Table): Table {
  const made = new Map<string, Promise<QueryPage>>();
  return {
    get: (key, options) => table.get(key, options),
    batchGet: (keys) => table.batchGet(keys),
    query: (input: QueryInput) => {
      const key = JSON.stringify(input);
      let page = made.get(key);
      if (!page) {
        page = table.query(input);
        made.set(key, page);
      }
      return page;
    },
    transact: (ops) => table.transact(ops),
    update: (op) => table.update(op),
    close: () => table.close(),
  };
}
