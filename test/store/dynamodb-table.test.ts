import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDynamoTable } from '../../lib/dynamodb/dynamodb-table.ts';
import { parseStreamRecord } from '../../lib/events/stream-record.ts';
import { createSqliteTable, openSqliteDatabase } from '../../lib/sqlite/sqlite-table.ts';
import type { Change } from '../../lib/store/change-feed.ts';
import { ConditionFailedError, type Table } from '../../lib/store/table.ts';
import { createTestTable, type TestTable } from '../support/dynamodb-local.ts';
import { createStreamReader } from '../support/dynamodb-stream.ts';
import { describeTableContract } from './table-contract.ts';

let testTable: TestTable;
beforeAll(async () => {
  testTable = await createTestTable(inject('dynamodbEndpoint'));
});
afterAll(() => testTable.drop());

describeTableContract('dynamodb', async () => ({
  table: createDynamoTable({ client: testTable.client, tableName: testTable.tableName }),
  cleanup: async () => {},
}));

/** The same writes on any engine: inserts, modifies, removes, a no-op put, a failed transaction. */
async function writeHistory(table: Table, pk: string): Promise<void> {
  const thing = (sk: string, attrs: Record<string, unknown> = {}) => ({
    pk,
    sk,
    entity: 'thing',
    schema_version: 1,
    ...attrs,
  });
  await table.transact([{ type: 'put', item: thing('a', { n: 1, tags: ['x'], meta: { ok: true } }) }]);
  await table.update({ type: 'update', key: { pk, sk: 'a' }, add: { n: 1 }, remove: ['tags'] });
  await table.transact([
    { type: 'put', item: thing('b', { ttl: 1_900_000_000 }) },
    { type: 'update', key: { pk, sk: 'c' }, set: { entity: 'counter' }, add: { count: 1 } },
  ]);
  await table.transact([{ type: 'put', item: thing('b', { ttl: 1_900_000_000 }) }]);
  const failing = table.transact([
    { type: 'delete', key: { pk, sk: 'c' } },
    { type: 'put', item: thing('a'), condition: { kind: 'itemNotExists' } },
  ]);
  await expect(failing).rejects.toBeInstanceOf(ConditionFailedError);
  await table.transact([
    { type: 'delete', key: { pk, sk: 'a' } },
    { type: 'update', key: { pk, sk: 'b' }, set: { n: null } },
    { type: 'conditionCheck', key: { pk, sk: 'c' }, condition: { kind: 'itemExists' } },
  ]);
}

/** Changes grouped per item (streams only order records per item), without event ids. */
function perItem(changes: Change[]): Record<string, Omit<Change, 'eventId'>[]> {
  const grouped: Record<string, Omit<Change, 'eventId'>[]> = {};
  for (const { eventId: _eventId, ...change } of changes) {
    const id = `${change.keys.pk}/${change.keys.sk}`;
    grouped[id] = [...(grouped[id] ?? []), change];
  }
  return grouped;
}

describe('dynamodb change feed', () => {
  it('gives the same Changes through parseStreamRecord as the sqlite outbox holds for the same writes', async () => {
    const pk = `stream#${Date.now()}`;
    const dynamo = createDynamoTable({ client: testTable.client, tableName: testTable.tableName });
    const sqlite = createSqliteTable({ db: openSqliteDatabase(':memory:') });
    await writeHistory(dynamo, pk);
    await writeHistory(sqlite, pk);

    const local = sqlite.readChanges(0, 100).map(({ change }) => change);
    const reader = createStreamReader(testTable.client, inject('dynamodbEndpoint'), testTable.tableName);
    const cloud: Change[] = [];
    try {
      for (let read = 0; read < 20 && cloud.length < local.length; read += 1) {
        const records = await reader.readNew();
        cloud.push(...records.map(parseStreamRecord).filter((change) => change.keys.pk === pk));
      }
    } finally {
      reader.close();
      await sqlite.close();
    }
    expect(local.map((c) => c.eventName).sort()).toEqual([
      'INSERT',
      'INSERT',
      'INSERT',
      'MODIFY',
      'MODIFY',
      'REMOVE',
    ]);
    expect(perItem(cloud)).toEqual(perItem(local));
  });
});
