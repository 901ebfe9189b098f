import type { QueryInput, QueryPage, Table } from '../../lib/store/table.ts';

/**
 * A table that answers every query as `query` does after recording its input in `queries`, and
 * refuses every other read and write (a read path under test uses nothing else).
 */
export function queryOnlyTable(queries: QueryInput[], query: (input: QueryInput) => QueryPage): Table {
  const unused = () => Promise.reject(new Error('not used'));
  return {
    get: unused,
    batchGet: unused,
    transact: unused,
    update: unused,
    close: async () => {},
    query: async (input) => {
      queries.push(input);
      return query(input);
    },
  };
}
