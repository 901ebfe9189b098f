import {
  ConditionalCheckFailedException,
  DynamoDBClient,
  TransactionCanceledException,
  TransactionConflictException,
} from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  DynamoDBDocumentClient,
  PutCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDynamoTable } from '../../lib/dynamodb/dynamodb-table.ts';
import { ConditionFailedError, InvalidWriteError, type Table, type WriteOp } from '../../lib/store/table.ts';

// Failure injection DynamoDB Local cannot produce (it serialises transactions, so never conflicts).

const meta = { $metadata: {} };
const cancelled = (...codes: string[]) =>
  new TransactionCanceledException({
    ...meta,
    message: 'Transaction cancelled',
    CancellationReasons: codes.map((Code) => ({ Code })),
  });
const twoPuts: WriteOp[] = [
  { type: 'put', item: { pk: 'p', sk: 'a', entity: 'thing', schema_version: 1 } },
  {
    type: 'put',
    item: { pk: 'p', sk: 'b', entity: 'thing', schema_version: 1 },
    condition: { kind: 'itemNotExists' },
  },
];

describe('dynamodb engine against injected failures', () => {
  const doc = DynamoDBDocumentClient.from(
    new DynamoDBClient({ region: 'local', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } }),
  );
  const mock = mockClient(doc);
  let table: Table;
  beforeEach(() => {
    mock.reset();
    table = createDynamoTable({ client: doc, tableName: 'vigil', maxConflictRetries: 3 });
  });
  afterEach(() => mock.reset());

  it('retries a transaction cancelled by a conflict until it commits', async () => {
    mock
      .on(TransactWriteCommand)
      .rejectsOnce(cancelled('TransactionConflict', 'None'))
      .rejectsOnce(cancelled('None', 'TransactionConflict'))
      .resolves({});
    await table.transact(twoPuts);
    expect(mock.commandCalls(TransactWriteCommand)).toHaveLength(3);
  });

  it('gives up after maxConflictRetries and rethrows the conflict', async () => {
    mock.on(TransactWriteCommand).rejects(cancelled('TransactionConflict', 'None'));
    await expect(table.transact(twoPuts)).rejects.toBeInstanceOf(TransactionCanceledException);
    expect(mock.commandCalls(TransactWriteCommand)).toHaveLength(4);
  });

  it('maps ConditionalCheckFailed reasons to the failed op indexes without retrying', async () => {
    mock.on(TransactWriteCommand).rejects(cancelled('None', 'ConditionalCheckFailed', 'TransactionConflict'));
    const error = await table
      .transact([...twoPuts, { type: 'delete', key: { pk: 'p', sk: 'c' } }])
      .catch((e) => e);
    expect(error).toBeInstanceOf(ConditionFailedError);
    expect(error.failed).toEqual([1]);
    expect(mock.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });

  it('maps a ValidationError reason to InvalidWriteError', async () => {
    mock.on(TransactWriteCommand).rejects(cancelled('ValidationError', 'None'));
    await expect(table.transact(twoPuts)).rejects.toBeInstanceOf(InvalidWriteError);
  });

  it('writes a single op with PutItem and maps its conditional failure to index 0', async () => {
    mock.on(PutCommand).rejects(new ConditionalCheckFailedException({ ...meta, message: 'failed' }));
    const error = await table.transact([twoPuts[1] as WriteOp]).catch((e) => e);
    expect(error).toBeInstanceOf(ConditionFailedError);
    expect(error.failed).toEqual([0]);
    expect(mock.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('retries a single write that met a transaction in flight', async () => {
    mock
      .on(UpdateCommand)
      .rejectsOnce(new TransactionConflictException({ ...meta, message: 'conflict' }))
      .resolves({ Attributes: { pk: 'p', sk: 'a', entity: 'thing', n: 1 } });
    const after = await table.update({ type: 'update', key: { pk: 'p', sk: 'a' }, add: { n: 1 } });
    expect(after).toEqual({ pk: 'p', sk: 'a', entity: 'thing', n: 1 });
    expect(mock.commandCalls(UpdateCommand)).toHaveLength(2);
  });

  it('keeps values out of expressions: names and values go through placeholders', async () => {
    mock.on(UpdateCommand).resolves({ Attributes: { pk: 'p', sk: 'a', entity: 'thing' } });
    const hostile = "x' OR 1=1 --";
    const wholeItem = { pk: 'p', sk: 'a', entity: 'ignored' };
    await table.update({
      type: 'update',
      key: wholeItem,
      set: { [hostile]: hostile, entity: 'thing' },
      remove: ['old'],
      add: { n: 2 },
      condition: { kind: 'compare', attr: 'version', op: '=', value: 3 },
    });
    const input = mock.commandCalls(UpdateCommand)[0]?.args[0].input;
    expect(input).toMatchObject({
      TableName: 'vigil',
      Key: { pk: 'p', sk: 'a' },
      UpdateExpression: 'SET #n0 = :v0, #n1 = :v1 REMOVE #n2 ADD #n3 :v2',
      ConditionExpression: '#n4 = :v3',
      ExpressionAttributeNames: {
        '#n0': hostile,
        '#n1': 'entity',
        '#n2': 'old',
        '#n3': 'n',
        '#n4': 'version',
      },
      ExpressionAttributeValues: { ':v0': hostile, ':v1': 'thing', ':v2': 2, ':v3': 3 },
      ReturnValues: 'ALL_NEW',
    });
    expect(input?.Key).toEqual({ pk: 'p', sk: 'a' });
  });

  it('asks again for unprocessed keys in batchGet', async () => {
    const a = { pk: 'p', sk: 'a', entity: 'thing' };
    const b = { pk: 'p', sk: 'b', entity: 'thing' };
    mock
      .on(BatchGetCommand)
      .resolvesOnce({
        Responses: { vigil: [a] },
        UnprocessedKeys: { vigil: { Keys: [{ pk: 'p', sk: 'b' }] } },
      })
      .resolves({ Responses: { vigil: [b] } });
    expect(await table.batchGet([a, b])).toEqual([a, b]);
    expect(mock.commandCalls(BatchGetCommand)[1]?.args[0].input.RequestItems).toEqual({
      vigil: { Keys: [{ pk: 'p', sk: 'b' }] },
    });
  });
});
