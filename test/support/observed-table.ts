import type { Key, QueryInput, Table, UpdateOp, WriteOp } from '../../lib/store/table.ts';

/** One call of the Table port, as an observer sees it before it runs. */
export type TableCall =
  | { kind: 'get'; key: Key }
  | { kind: 'batchGet'; keys: Key[] }
  | { kind: 'query'; input: QueryInput }
  | { kind: 'transact'; ops: WriteOp[] }
  | { kind: 'update'; op: UpdateOp };

/**
 * The table with every call told to `observe` first, then passed through unchanged: what a test
 * counting a path's store work wraps the real engine in.
 */
export function observedTable(table: Table, observe: (call: TableCall) => void): Table {
  return {
    get: (key, options) => {
      observe({ kind: 'get', key });
      return table.get(key, options);
    },
    batchGet: (keys) => {
      observe({ kind: 'batchGet', keys });
      return table.batchGet(keys);
    },
    query: (input) => {
      observe({ kind: 'query', input });
      return table.query(input);
    },
    transact: (ops) => {
      observe({ kind: 'transact', ops });
      return table.transact(ops);
    },
    update: (op) => {
      observe({ kind: 'update', op });
      return table.update(op);
    },
    close: () => table.close(),
  };
}
