import type { z } from 'zod';
import { ConditionFailedError, type Item, type Key, type Table, type WriteOp } from './table.ts';

/** Parses a stored item with its schema (parse, don't assert), stripping the key attributes. */
export function parseItem<S extends z.ZodType>(schema: S, item: Item): z.output<S> {
  return schema.parse(item);
}

/** Strips storage attributes (keys, entity, schema_version, ttl) from an item. */
export function withoutKeys(item: Item): Record<string, unknown> {
  const {
    pk: _pk,
    sk: _sk,
    entity: _e,
    schema_version: _v,
    gsi1pk: _a,
    gsi1sk: _b,
    gsi2pk: _c,
    gsi2sk: _d,
    ttl: _t,
    ...rest
  } = item;
  return rest;
}

/** Reads every page of a query (bounded by `maxItems`, to keep loops finite). */
export async function queryAll(
  query: (cursor: string | undefined) => Promise<{ items: Item[]; cursor?: string }>,
  maxItems = 100_000,
): Promise<Item[]> {
  const out: Item[] = [];
  let cursor: string | undefined;
  do {
    const page = await query(cursor);
    out.push(...page.items);
    cursor = page.cursor;
  } while (cursor && out.length < maxItems);
  return out;
}

/** Keys per batch get (the engines' limit). */
const BATCH_GET_KEYS = 100;

/** Batch gets any number of keys, 100 per request and up to `parallel` requests in flight. */
export async function batchGetAll(table: Table, keys: Key[], parallel = 8): Promise<Item[]> {
  const batches: Key[][] = [];
  for (let i = 0; i < keys.length; i += BATCH_GET_KEYS) batches.push(keys.slice(i, i + BATCH_GET_KEYS));
  const out: Item[] = [];
  for (let i = 0; i < batches.length; i += parallel) {
    const answers = await Promise.all(batches.slice(i, i + parallel).map((batch) => table.batchGet(batch)));
    for (const items of answers) out.push(...items);
  }
  return out;
}

/** Runs `ops` in one transaction; false when a condition failed (the write was made before, or is not due). */
export async function transactIf(table: Table, ops: WriteOp[]): Promise<boolean> {
  try {
    await table.transact(ops);
    return true;
  } catch (error) {
    if (error instanceof ConditionFailedError) return false;
    throw error;
  }
}
