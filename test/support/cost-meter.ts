import { BatchGetItemCommand, type DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import type { EntityCost, MeterSnapshot } from './cost-prices.ts';
import {
  canonical,
  entityOf,
  itemSize,
  keyOf,
  missingLabel,
  NO_ITEM,
  readUnits,
  remarshall,
  type StoredItem,
  writeUnits,
} from './item-size.ts';

/**
 * The cost meter: a middleware on the DynamoDB client the code under test uses, pricing every call
 * by AWS's capacity rules (DynamoDB Local's ConsumedCapacity is wrong for transactions), plus
 * counters the harness feeds for SQS requests, Lambda invocations and EventBridge entries. It
 * sits at the build step, where the document client's input is already marshalled and its output
 * already unmarshalled. To know an item before a write (and after an update) it reads the item
 * through `peek`, a second client without the meter, so its own reads cost nothing.
 */

const GSIS = ['gsi1', 'gsi2'] as const;
const SQS_CHUNK_BYTES = 64 * 1024;
/** Calls that cost no request units (control plane). */
const FREE = new Set(
  ['CreateTable', 'DeleteTable', 'DescribeTable', 'ListTables'].map((op) => `${op}Command`),
);
const emptyCost = (): EntityCost => ({ wru: 0, gsiWru: 0, rru: 0, streamRecords: 0 });

/** One write as the meter prices it. */
interface PricedWrite {
  key: StoredItem;
  /** The item a put writes (known before the call). */
  put?: StoredItem;
  kind: 'put' | 'update' | 'delete' | 'check';
}

export function createCostMeter(options: {
  client: DynamoDBClient;
  peek: DynamoDBClient;
  tableName: string;
}) {
  const { peek, tableName } = options;
  let snap: MeterSnapshot;
  let paused = false;
  /**
   * Write units per partition key per wall-clock second (table writes, transactions at twice; and
   * each index's partitions, `<index>:<pk>`): what DynamoDB's 1,000 WCU/s per partition key bounds
   * (issue 35's storm in the cloud).
   */
  let keySeconds = new Map<string, number>();
  const chargePk = (pk: string, units: number) => {
    const slot = `${Math.floor(Date.now() / 1000)}|${pk}`;
    keySeconds.set(slot, (keySeconds.get(slot) ?? 0) + units);
  };
  const chargeKey = (key: StoredItem | undefined, units: number) =>
    chargePk((key?.pk as { S?: string } | undefined)?.S ?? '?', units);
  /**
   * An index's partition key takes the same bound as a table's (a hot GSI partition throttles the
   * table's writes): counted as `<index>:<pk>`, e.g. `gsi2:DUE#3`.
   */
  const chargeIndexKey = (index: string, item: StoredItem | undefined, units: number) =>
    chargePk(`${index}:${(item?.[`${index}pk`] as { S?: string } | undefined)?.S ?? '?'}`, units);
  const reset = () => {
    keySeconds = new Map();
    snap = {
      byEntity: {},
      calls: {},
      unpriced: {},
      sqsRequests: {},
      invocations: {},
      eventBridgeEntries: 0,
      schedulerInvocations: 0,
      apiRequests: 0,
    };
  };
  reset();
  const bump = (counts: Record<string, number>, name: string, by = 1) => {
    counts[name] = (counts[name] ?? 0) + by;
  };
  const cost = (entity: string) => {
    snap.byEntity[entity] ??= emptyCost();
    return snap.byEntity[entity];
  };

  /** The items at `keys` now (strongly consistent), in order; one call however many. */
  const readAll = async (keys: StoredItem[]): Promise<(StoredItem | undefined)[]> => {
    if (keys.length === 0) return [];
    if (keys.length === 1) {
      const out = await peek.send(
        new GetItemCommand({ TableName: tableName, Key: keys[0], ConsistentRead: true }),
      );
      return [out.Item];
    }
    const found = new Map<string, StoredItem>();
    let pending = keys;
    for (let attempt = 0; pending.length > 0; attempt += 1) {
      if (attempt >= 8) throw new Error('the meter could not read the items around a write');
      const out = await peek.send(
        new BatchGetItemCommand({ RequestItems: { [tableName]: { Keys: pending, ConsistentRead: true } } }),
      );
      for (const item of out.Responses?.[tableName] ?? []) found.set(canonical(keyOf(item)), item);
      pending = out.UnprocessedKeys?.[tableName]?.Keys ?? [];
    }
    return keys.map((key) => found.get(canonical(keyOf(key))));
  };

  /** Table, index and stream costs of one committed write (`factor` 2 inside a transaction). */
  const chargeWrite = (
    key: StoredItem,
    before: StoredItem | undefined,
    after: StoredItem | undefined,
    factor: number,
  ) => {
    const entity = cost(entityOf(after, before));
    const units = factor * writeUnits(Math.max(itemSize(before), itemSize(after)));
    entity.wru += units;
    chargeKey(key, units);
    const changed = canonical(before) !== canonical(after);
    if (changed) entity.streamRecords += 1;
    for (const index of GSIS) {
      const keyIn = (item: StoredItem | undefined) =>
        item?.[`${index}pk`] && item[`${index}sk`]
          ? canonical([item[`${index}pk`], item[`${index}sk`]])
          : undefined;
      const was = keyIn(before);
      const is = keyIn(after);
      // Every index projects ALL: a put whenever the item in the index changes.
      if (was !== undefined && was !== is) {
        entity.gsiWru += writeUnits(itemSize(before));
        chargeIndexKey(index, before, writeUnits(itemSize(before)));
      }
      if (is !== undefined && (was !== is || changed)) {
        entity.gsiWru += writeUnits(itemSize(after));
        chargeIndexKey(index, after, writeUnits(itemSize(after)));
      }
    }
  };

  /** Prices a set of writes around the call: before images, the call, after images. */
  const meterWrites = async <T>(
    writes: PricedWrite[],
    factor: number,
    call: () => Promise<T>,
  ): Promise<T> => {
    const befores = await readAll(writes.map((w) => w.key));
    let out: T;
    try {
      out = await call();
    } catch (error) {
      const name = error instanceof Error ? error.name : '';
      if (name === 'ConditionalCheckFailedException' || name === 'TransactionCanceledException') {
        // A failed condition still costs its units (a cancelled transaction: its prepare phase, once).
        writes.forEach((w, i) => {
          const before = befores[i];
          cost(entityOf(w.put, before)).wru += writeUnits(Math.max(itemSize(before), itemSize(w.put)));
        });
      }
      throw error;
    }
    const updated = await readAll(writes.filter((w) => w.kind === 'update').map((w) => w.key));
    const afters = writes.map((w, i) =>
      w.kind === 'put'
        ? w.put
        : w.kind === 'delete'
          ? undefined
          : w.kind === 'check'
            ? befores[i]
            : updated.shift(),
    );
    writes.forEach((w, i) => {
      if (w.kind === 'check') {
        const units = factor * writeUnits(itemSize(befores[i]));
        cost(entityOf(befores[i])).wru += units;
        chargeKey(w.key, units);
      } else chargeWrite(w.key, befores[i], afters[i], factor);
    });
    return out;
  };

  /** Read units of items read in one call: sizes summed per call, or per item for batches. */
  const chargeRead = (items: StoredItem[], unitFactor: number, perItem: boolean, nothing: string) => {
    if (items.length === 0) {
      cost(nothing).rru += unitFactor;
      return;
    }
    if (perItem) {
      for (const item of items) cost(entityOf(item)).rru += unitFactor * readUnits(itemSize(item));
      return;
    }
    const total = items.reduce((sum, item) => sum + itemSize(item), 0);
    const units = unitFactor * readUnits(total);
    // A query's units are shared by its item types in proportion to their bytes.
    for (const item of items) cost(entityOf(item)).rru += (units * itemSize(item)) / Math.max(1, total);
  };

  // biome-ignore lint/suspicious/noExplicitAny: the SDK's middleware types are generic over every command.
  type Args = { input: any };
  // biome-ignore lint/suspicious/noExplicitAny: the output is each command's own shape.
  type Out = { output: any };
  const middleware =
    (next: (args: Args) => Promise<Out>, context: { commandName?: string }) =>
    async (args: Args): Promise<Out> => {
      const command = context.commandName ?? 'unknown';
      const input = args.input;
      const send = () => next(args);
      if (paused || FREE.has(command)) return send();
      bump(snap.calls, command.replace(/Command$/, ''));
      switch (command) {
        case 'PutItemCommand':
          return meterWrites([{ key: keyOf(input.Item), put: input.Item, kind: 'put' }], 1, send);
        case 'UpdateItemCommand':
          return meterWrites([{ key: input.Key, kind: 'update' }], 1, send);
        case 'DeleteItemCommand':
          return meterWrites([{ key: input.Key, kind: 'delete' }], 1, send);
        case 'BatchWriteItemCommand': {
          const requests: { PutRequest?: { Item: StoredItem }; DeleteRequest?: { Key: StoredItem } }[] =
            input.RequestItems?.[tableName] ?? [];
          const writes = requests.map((r): PricedWrite => {
            if (r.PutRequest) return { key: keyOf(r.PutRequest.Item), put: r.PutRequest.Item, kind: 'put' };
            if (r.DeleteRequest) return { key: r.DeleteRequest.Key, kind: 'delete' };
            throw new Error('an empty BatchWriteItem request');
          });
          return meterWrites(writes, 1, send);
        }
        case 'TransactWriteItemsCommand': {
          const items: Record<string, { Item?: StoredItem; Key?: StoredItem }>[] = input.TransactItems ?? [];
          const writes = items.map((entry): PricedWrite => {
            if (entry.Put?.Item) return { key: keyOf(entry.Put.Item), put: entry.Put.Item, kind: 'put' };
            if (entry.Update?.Key) return { key: entry.Update.Key, kind: 'update' };
            if (entry.Delete?.Key) return { key: entry.Delete.Key, kind: 'delete' };
            if (entry.ConditionCheck?.Key) return { key: entry.ConditionCheck.Key, kind: 'check' };
            throw new Error('an unknown TransactWriteItems entry');
          });
          return meterWrites(writes, 2, send);
        }
        case 'GetItemCommand': {
          const out = await send();
          const item = out.output.Item ? [remarshall(out.output.Item)] : [];
          chargeRead(item, input.ConsistentRead ? 1 : 0.5, false, missingLabel(input.Key));
          return out;
        }
        case 'QueryCommand':
        case 'ScanCommand': {
          const out = await send();
          const items = (out.output.Items ?? []).map(remarshall);
          // Index queries are eventually consistent whatever the request says.
          const empty = `(empty query ${input.IndexName ?? 'table'})`;
          chargeRead(items, input.ConsistentRead && !input.IndexName ? 1 : 0.5, false, empty);
          return out;
        }
        case 'BatchGetItemCommand': {
          const out = await send();
          const requested: StoredItem[] = input.RequestItems?.[tableName]?.Keys ?? [];
          const found: StoredItem[] = (out.output.Responses?.[tableName] ?? []).map(remarshall);
          const unprocessed = (out.output.UnprocessedKeys?.[tableName]?.Keys ?? []).map(remarshall);
          const factor = input.RequestItems?.[tableName]?.ConsistentRead ? 1 : 0.5;
          for (const item of found) cost(entityOf(item)).rru += factor * readUnits(itemSize(item));
          // A key that found nothing still costs the smallest read.
          const answered = new Set([...found, ...unprocessed].map((item) => canonical(keyOf(item))));
          for (const key of requested) {
            if (!answered.has(canonical(keyOf(key)))) cost(missingLabel(key)).rru += factor;
          }
          return out;
        }
        case 'TransactGetItemsCommand': {
          const out = await send();
          const found = (out.output.Responses ?? []).flatMap((r: { Item?: Record<string, unknown> }) =>
            r.Item ? [remarshall(r.Item)] : [],
          );
          chargeRead(found, 2, true, NO_ITEM);
          return out;
        }
        default:
          bump(snap.unpriced, command);
          return send();
      }
    };

  options.client.middlewareStack.add(middleware as never, { step: 'build', name: 'vigilCostMeter' });

  return {
    reset,
    /** Stops counting (and reading around writes) until `resume`: for setup the figures leave out. */
    pause() {
      paused = true;
    },
    resume() {
      paused = false;
    },
    /** A copy of what was counted since the last reset. */
    snapshot: (): MeterSnapshot => structuredClone(snap),
    /** The partition keys that took the most write units in one second since the last reset, hottest first. */
    hottestKeys(count = 5): { pk: string; second: number; wcu: number }[] {
      const best = new Map<string, { pk: string; second: number; wcu: number }>();
      for (const [slot, wcu] of keySeconds) {
        const [second, pk] = [Number(slot.slice(0, slot.indexOf('|'))), slot.slice(slot.indexOf('|') + 1)];
        const seen = best.get(pk);
        if (!seen || wcu > seen.wcu) best.set(pk, { pk, second, wcu });
      }
      return [...best.values()].sort((a, b) => b.wcu - a.wcu).slice(0, count);
    },
    /**
     * The partition keys that took the most write units since the last reset, all seconds summed,
     * hottest first: a burst's load per key when the burst is one second of the product's clock
     * (bench/cronburst.ts), however long DynamoDB Local took to take it.
     */
    hottestKeysOverall(count = 5): { pk: string; wcu: number }[] {
      const totals = new Map<string, number>();
      for (const [slot, wcu] of keySeconds) {
        const pk = slot.slice(slot.indexOf('|') + 1);
        totals.set(pk, (totals.get(pk) ?? 0) + wcu);
      }
      return [...totals]
        .map(([pk, wcu]) => ({ pk, wcu }))
        .sort((a, b) => b.wcu - a.wcu)
        .slice(0, count);
    },
    /** A send to SQS of `payloadBytes` (billed per started 64 KB), or another SQS request. */
    countSqs(operation: string, payloadBytes = 0) {
      bump(snap.sqsRequests, operation, Math.max(1, Math.ceil(payloadBytes / SQS_CHUNK_BYTES)));
    },
    countInvocation(fn: string) {
      bump(snap.invocations, fn);
    },
    countEventBridgeEntries(entries: number) {
      snap.eventBridgeEntries += entries;
    },
    countSchedulerInvocation() {
      snap.schedulerInvocations += 1;
    },
    /** A request API Gateway's HTTP API passed to the api function. */
    countApiRequest() {
      snap.apiRequests += 1;
    },
    detach: () => options.client.middlewareStack.remove('vigilCostMeter'),
  };
}

export type CostMeter = ReturnType<typeof createCostMeter>;
