import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { type CostMeter, createCostMeter } from '../support/cost-meter.ts';
import type { EntityCost } from '../support/cost-prices.ts';
import { createTestTable, type TestTable } from '../support/dynamodb-local.ts';
import { itemSize } from '../support/item-size.ts';

/** The meter's pricing rules against hand-computed cases, through the document client over DynamoDB Local. */

let testTable: TestTable;
let metered: DynamoDBClient;
let doc: DynamoDBDocumentClient;
let meter: CostMeter;

beforeAll(async () => {
  testTable = await createTestTable(inject('dynamodbEndpoint'), 'vigil-meter');
  metered = testTable.connect();
  meter = createCostMeter({ client: metered, peek: testTable.client, tableName: testTable.tableName });
  doc = DynamoDBDocumentClient.from(metered);
});

afterAll(async () => {
  metered?.destroy();
  await testTable?.drop();
});

beforeEach(() => meter.reset());

const TableName = () => testTable.tableName;
/** An item of exactly `bytes` bytes (pk, sk, entity and a padding string). */
function sized(sk: string, bytes: number, extra: Record<string, unknown> = {}) {
  const base = { pk: 'P#1', sk, entity: 'thing', ...extra, pad: '' };
  const size = itemSize({
    pk: { S: base.pk },
    sk: { S: sk },
    entity: { S: 'thing' },
    pad: { S: '' },
    ...Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, { S: String(v) }])),
  });
  return { ...base, pad: 'x'.repeat(bytes - size) };
}
const put = (item: Record<string, unknown>) =>
  doc.send(new PutCommand({ TableName: TableName(), Item: item }));
const thing = (): EntityCost =>
  meter.snapshot().byEntity.thing ?? { wru: 0, gsiWru: 0, rru: 0, streamRecords: 0 };

describe('item sizes', () => {
  it('counts names plus values: strings in bytes, numbers by significant digits, maps and lists with overheads', () => {
    expect(itemSize({ pk: { S: 'a' }, sk: { S: 'é' } })).toBe(2 + 1 + 2 + 2);
    expect(itemSize({ n: { N: '12345' }, z: { N: '-0.00100' } })).toBe(1 + 4 + (1 + 2));
    expect(itemSize({ m: { M: { a: { S: 'xy' } } } })).toBe(1 + 3 + (1 + 1 + 2));
    expect(itemSize({ l: { L: [{ BOOL: true }, { NULL: true }] } })).toBe(1 + 3 + 2 + 2);
  });
});

describe('the cost meter', () => {
  it('prices single writes per started 1 KB of the larger image, and a failed condition still pays', async () => {
    await put(sized('A', 1500));
    expect(thing()).toEqual({ wru: 2, gsiWru: 0, rru: 0, streamRecords: 1 });

    meter.reset();
    await doc.send(
      new UpdateCommand({
        TableName: TableName(),
        Key: { pk: 'P#1', sk: 'A' },
        UpdateExpression: 'SET more = :m',
        ExpressionAttributeValues: { ':m': 'y'.repeat(600) },
      }),
    );
    expect(thing()).toEqual({ wru: 3, gsiWru: 0, rru: 0, streamRecords: 1 });

    meter.reset();
    await expect(
      doc.send(
        new PutCommand({
          TableName: TableName(),
          Item: sized('A', 100),
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      ),
    ).rejects.toThrow();
    expect(thing()).toEqual({ wru: 3, gsiWru: 0, rru: 0, streamRecords: 0 });

    meter.reset();
    await doc.send(new DeleteCommand({ TableName: TableName(), Key: { pk: 'P#1', sk: 'A' } }));
    expect(thing()).toEqual({ wru: 3, gsiWru: 0, rru: 0, streamRecords: 1 });
    expect(meter.snapshot().calls).toEqual({ DeleteItem: 1 });
  });

  it('doubles every transactional write, a condition check included', async () => {
    await put(sized('B', 1500));
    await put(sized('C', 100));
    meter.reset();

    await doc.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: TableName(), Item: sized('D', 100) } },
          {
            Update: {
              TableName: TableName(),
              Key: { pk: 'P#1', sk: 'B' },
              UpdateExpression: 'SET n = :n',
              ExpressionAttributeValues: { ':n': 1 },
            },
          },
          {
            ConditionCheck: {
              TableName: TableName(),
              Key: { pk: 'P#1', sk: 'C' },
              ConditionExpression: 'attribute_exists(pk)',
            },
          },
        ],
      }),
    );

    expect(thing()).toEqual({ wru: 2 * 1 + 2 * 2 + 2 * 1, gsiWru: 0, rru: 0, streamRecords: 2 });
  });

  it('charges a cancelled transaction its prepare phase once, with no index write and no stream record', async () => {
    await put(sized('X', 1500));
    meter.reset();

    await expect(
      doc.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: TableName(), Item: sized('Y', 100, { gsi1pk: 'DUE', gsi1sk: '1' }) } },
            {
              ConditionCheck: {
                TableName: TableName(),
                Key: { pk: 'P#1', sk: 'X' },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
          ],
        }),
      ),
    ).rejects.toThrow();

    expect(thing()).toEqual({ wru: 1 + 2, gsiWru: 0, rru: 0, streamRecords: 0 });
  });

  it('adds an index write per key added or removed, two per key moved, one per changed item in place', async () => {
    await put(sized('G', 1500, { gsi1pk: 'DUE', gsi1sk: '1' }));
    expect(thing()).toEqual({ wru: 2, gsiWru: 2, rru: 0, streamRecords: 1 });

    const update = async (expression: string, values?: Record<string, unknown>) => {
      meter.reset();
      await doc.send(
        new UpdateCommand({
          TableName: TableName(),
          Key: { pk: 'P#1', sk: 'G' },
          UpdateExpression: expression,
          ...(values ? { ExpressionAttributeValues: values } : {}),
        }),
      );
      return thing();
    };
    // The key moves: a delete and a put in the index.
    expect(await update('SET gsi1sk = :s', { ':s': '2' })).toEqual({
      wru: 2,
      gsiWru: 4,
      rru: 0,
      streamRecords: 1,
    });
    // Same key, another attribute changes: the index item is rewritten (ALL projected).
    expect(await update('SET note = :n', { ':n': 'a' })).toEqual({
      wru: 2,
      gsiWru: 2,
      rru: 0,
      streamRecords: 1,
    });
    // Nothing changes: the table write is billed, no index write, no stream record.
    expect(await update('SET note = :n', { ':n': 'a' })).toEqual({
      wru: 2,
      gsiWru: 0,
      rru: 0,
      streamRecords: 0,
    });
    // The key is removed: one delete.
    expect(await update('REMOVE gsi1pk, gsi1sk')).toEqual({ wru: 2, gsiWru: 2, rru: 0, streamRecords: 1 });
  });

  it('prices reads per 4 KB: half a unit eventually consistent, per item in a batch, per call in a query', async () => {
    await put(sized('R1', 5000));
    await put(sized('R2', 1500));
    await put(sized('R3', 1500));
    meter.reset();

    await doc.send(new GetCommand({ TableName: TableName(), Key: { pk: 'P#1', sk: 'R1' } }));
    expect(thing().rru).toBe(1);
    await doc.send(
      new GetCommand({ TableName: TableName(), Key: { pk: 'P#1', sk: 'R1' }, ConsistentRead: true }),
    );
    expect(thing().rru).toBe(3);
    await doc.send(new GetCommand({ TableName: TableName(), Key: { pk: 'P#1', sk: 'nothing' } }));
    expect(meter.snapshot().byEntity['(missing nothing)']?.rru).toBe(0.5);

    meter.reset();
    // 1,500 + 1,500 + 5,000 bytes read at once: 2 x 4 KB, eventually consistent.
    await doc.send(
      new QueryCommand({
        TableName: TableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :r)',
        ExpressionAttributeValues: { ':pk': 'P#1', ':r': 'R' },
      }),
    );
    expect(thing().rru).toBe(1);

    meter.reset();
    await doc.send(
      new BatchGetCommand({
        RequestItems: {
          [TableName()]: {
            Keys: [
              { pk: 'P#1', sk: 'R2' },
              { pk: 'P#1', sk: 'R3' },
              { pk: 'P#1', sk: 'none' },
            ],
          },
        },
      }),
    );
    expect(thing().rru).toBe(1);
    expect(meter.snapshot().byEntity['(missing none)']?.rru).toBe(0.5);
    expect(meter.snapshot().unpriced).toEqual({});
  });
});
