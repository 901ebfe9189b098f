import { afterAll, beforeAll, inject } from 'vitest';
import { createDynamoTable } from '../../lib/dynamodb/dynamodb-table.ts';
import { createSqliteTable, openSqliteDatabase } from '../../lib/sqlite/sqlite-table.ts';
import type { Table } from '../../lib/store/table.ts';
import { createTestTable, type TestTable } from './dynamodb-local.ts';

/** One engine of the Table port, for `describe.each`: `make()` answers a table over it. */
export interface TableEngine {
  engine: 'sqlite' | 'dynamodb';
  make: () => Table;
}

/**
 * Both engines of the Table port for a file's tests: an in-memory SQLite table per `make()`, or the
 * file's one DynamoDB Local table (made before its tests, dropped after them; each test keys its
 * own items). Call it at the top of the file, as a module-level hook.
 */
export function tableEngines(): TableEngine[] {
  let dynamo: TestTable | undefined;
  beforeAll(async () => {
    dynamo = await createTestTable(inject('dynamodbEndpoint'));
  });
  afterAll(() => dynamo?.drop());
  return [
    { engine: 'sqlite', make: () => createSqliteTable({ db: openSqliteDatabase(':memory:') }) },
    {
      engine: 'dynamodb',
      make: () => {
        if (!dynamo) throw new Error('the DynamoDB Local table is read before its beforeAll made it');
        return createDynamoTable({ client: dynamo.client, tableName: dynamo.tableName });
      },
    },
  ];
}
