import { setTimeout as sleep } from 'node:timers/promises';
import type { CreateTableCommandInput, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  type TransactWriteCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { decodeCursor, encodeCursor, positionOf } from '../store/cursor.ts';
import { parseStoredItem } from '../store/item-schema.ts';
import type { Item, Key, Table, UpdateOp, WriteOp } from '../store/table.ts';
import { uniqueKeys, validateOp, validateQuery, validateTransaction } from '../store/validation.ts';
import { backoffMs, withConflictRetries } from './dynamodb-errors.ts';
import {
  conditionExpression,
  createPlaceholders,
  keyConditionExpression,
  updateExpression,
} from './dynamodb-expressions.ts';

export interface DynamoTableOptions {
  /** A plain client is wrapped in a document client (undefined values removed); a document client is used as is. */
  client: DynamoDBClient | DynamoDBDocumentClient;
  tableName: string;
  /** Retries after a transaction conflict or a transaction in progress; default 8. */
  maxConflictRetries?: number;
}

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

const BATCH_GET_ATTEMPTS = 8;
const keySchema = z.object({ pk: z.string(), sk: z.string() });

/** The key attributes only (callers may hand in a whole item as a key). */
function keyOf(key: Key): Key {
  return { pk: key.pk, sk: key.sk };
}

/** The UpdateItem request for an update op (also the body of a transaction's Update entry). */
function updateRequest(op: UpdateOp, TableName: string) {
  const p = createPlaceholders();
  const UpdateExpression = updateExpression(op, p);
  const condition = op.condition ? { ConditionExpression: conditionExpression(op.condition, p) } : {};
  return { TableName, Key: keyOf(op.key), UpdateExpression, ...condition, ...p.attributes() };
}

/** The TransactWriteItems entry for one op; the same shapes serve the single-item calls. */
function transactItem(op: WriteOp, TableName: string): TransactItem {
  if (op.type === 'update') return { Update: updateRequest(op, TableName) };
  const p = createPlaceholders();
  if (op.type === 'conditionCheck') {
    const ConditionExpression = conditionExpression(op.condition, p);
    return { ConditionCheck: { TableName, Key: keyOf(op.key), ConditionExpression, ...p.attributes() } };
  }
  const condition = op.condition ? { ConditionExpression: conditionExpression(op.condition, p) } : {};
  return op.type === 'put'
    ? { Put: { TableName, Item: op.item, ...condition, ...p.attributes() } }
    : { Delete: { TableName, Key: keyOf(op.key), ...condition, ...p.attributes() } };
}

/** The DynamoDB definition of the single table (keys, gsi1, gsi2, stream); the CDK stack mirrors it. */
export function createTableDefinition(tableName: string): CreateTableCommandInput {
  const attrs = ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk'];
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: attrs.map((AttributeName) => ({ AttributeName, AttributeType: 'S' })),
    KeySchema: [
      { AttributeName: 'pk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: ['gsi1', 'gsi2'].map((IndexName) => ({
      IndexName,
      KeySchema: [
        { AttributeName: `${IndexName}pk`, KeyType: 'HASH' },
        { AttributeName: `${IndexName}sk`, KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'ALL' },
    })),
    StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
  };
}

/** The DynamoDB engine of the Table port (AWS SDK v3 document client); `close()` leaves the client to its owner. */
export function createDynamoTable(options: DynamoTableOptions): Table {
  const { tableName } = options;
  const doc =
    options.client instanceof DynamoDBDocumentClient
      ? options.client
      : DynamoDBDocumentClient.from(options.client, { marshallOptions: { removeUndefinedValues: true } });
  const maxRetries = options.maxConflictRetries ?? 8;

  /** One op through PutItem / UpdateItem / DeleteItem, so a lone write is not a transaction. */
  const single = async (op: Exclude<WriteOp, { type: 'conditionCheck' }>): Promise<void> => {
    const item = transactItem(op, tableName);
    if (item.Put) await doc.send(new PutCommand(item.Put));
    else if (item.Update) await doc.send(new UpdateCommand(item.Update));
    else if (item.Delete) await doc.send(new DeleteCommand(item.Delete));
  };

  return {
    async get(key, getOptions) {
      const out = await doc.send(
        new GetCommand({ TableName: tableName, Key: keyOf(key), ConsistentRead: getOptions?.consistent }),
      );
      return out.Item ? parseStoredItem(out.Item) : undefined;
    },

    async batchGet(keys) {
      let pending = uniqueKeys(keys);
      const items: Item[] = [];
      for (let attempt = 0; pending.length > 0; attempt += 1) {
        if (attempt >= BATCH_GET_ATTEMPTS) {
          throw new Error(`batchGet: ${pending.length} keys still unprocessed after ${attempt} attempts`);
        }
        if (attempt > 0) await sleep(backoffMs(attempt - 1));
        const out = await doc.send(new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending } } }));
        items.push(...(out.Responses?.[tableName] ?? []).map(parseStoredItem));
        pending = (out.UnprocessedKeys?.[tableName]?.Keys ?? []).map((key) => keySchema.parse(key));
      }
      return items;
    },

    async query(input) {
      const limit = validateQuery(input);
      const p = createPlaceholders();
      const KeyConditionExpression = keyConditionExpression(input, p);
      const out = await doc.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: input.index,
          KeyConditionExpression,
          ...p.attributes(),
          Limit: limit,
          ScanIndexForward: input.direction !== 'desc',
          // GSIs only support eventually consistent reads.
          ConsistentRead: input.index ? undefined : input.consistent,
          ExclusiveStartKey: input.cursor ? decodeCursor(input.cursor, input.index, input.pk) : undefined,
        }),
      );
      const items = (out.Items ?? []).map(parseStoredItem);
      const last = out.LastEvaluatedKey;
      return last ? { items, cursor: encodeCursor(positionOf(last, input.index)) } : { items };
    },

    async transact(ops) {
      validateTransaction(ops);
      const [only] = ops;
      if (!only) return;
      if (ops.length === 1 && only.type !== 'conditionCheck') {
        await withConflictRetries(() => single(only), maxRetries);
        return;
      }
      const TransactItems = ops.map((op) => transactItem(op, tableName));
      await withConflictRetries(() => doc.send(new TransactWriteCommand({ TransactItems })), maxRetries);
    },

    async update(op: UpdateOp) {
      validateOp(op);
      const request = { ...updateRequest(op, tableName), ReturnValues: 'ALL_NEW' as const };
      const out = await withConflictRetries(() => doc.send(new UpdateCommand(request)), maxRetries);
      return parseStoredItem(out.Attributes);
    },

    async close() {},
  };
}
