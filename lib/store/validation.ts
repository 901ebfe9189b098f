import {
  type Condition,
  InvalidWriteError,
  type Key,
  MAX_QUERY_LIMIT,
  MAX_TRANSACTION_OPS,
  type QueryInput,
  type UpdateOp,
  type WriteOp,
} from './table.ts';

/**
 * Shape rules both engines enforce before touching storage, so a write DynamoDB would refuse with
 * a ValidationException is refused the same way by the sqlite engine.
 */

const KEY_ATTRS = new Set(['pk', 'sk']);
const INDEX_KEY_ATTRS = new Set(['gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk']);

/** The key an operation writes. */
export function opKey(op: WriteOp): Key {
  return op.type === 'put' ? { pk: op.item.pk, sk: op.item.sk } : op.key;
}

function checkKey(key: Key): void {
  if (typeof key.pk !== 'string' || key.pk === '' || typeof key.sk !== 'string' || key.sk === '') {
    throw new InvalidWriteError('pk and sk must be non-empty strings');
  }
}

function checkIndexKey(attr: string, value: unknown): void {
  if (INDEX_KEY_ATTRS.has(attr) && value !== undefined && (typeof value !== 'string' || value === '')) {
    throw new InvalidWriteError(`${attr} must be a non-empty string`);
  }
}

function checkCondition(condition: Condition): void {
  switch (condition.kind) {
    case 'and':
    case 'or':
      if (condition.conditions.length === 0)
        throw new InvalidWriteError(`empty '${condition.kind}' condition`);
      condition.conditions.forEach(checkCondition);
      return;
    case 'compare':
      if (typeof condition.value === 'boolean' && condition.op !== '=' && condition.op !== '<>') {
        throw new InvalidWriteError(`booleans only support = and <> (got ${condition.op})`);
      }
      if (condition.attr === '') throw new InvalidWriteError('empty attribute name in condition');
      return;
    case 'attrExists':
    case 'attrNotExists':
      if (condition.attr === '') throw new InvalidWriteError('empty attribute name in condition');
      return;
    default:
      return;
  }
}

/** `set` without undefined values (undefined means "leave out", as in JSON). */
export function definedSet(op: UpdateOp): [string, unknown][] {
  return Object.entries(op.set ?? {}).filter(([, value]) => value !== undefined);
}

/** The entries an update sets in map attributes (without undefined values), as [map, key, value]. */
export function definedEntrySets(op: UpdateOp): [string, string, unknown][] {
  return Object.entries(op.entries ?? {}).flatMap(([map, change]) =>
    Object.entries(change.set ?? {}).flatMap(([key, value]) =>
      value === undefined ? [] : [[map, key, value] as [string, string, unknown]],
    ),
  );
}

/** The entries an update removes from map attributes, as [map, key]. */
export function entryRemovals(op: UpdateOp): [string, string][] {
  return Object.entries(op.entries ?? {}).flatMap(([map, change]) =>
    (change.remove ?? []).map((key): [string, string] => [map, key]),
  );
}

/** A map attribute's entries: named once each, not empty. */
function checkEntries(map: string, change: NonNullable<UpdateOp['entries']>[string]): number {
  const keys = new Set<string>();
  const key = (name: string) => {
    if (name === '') throw new InvalidWriteError(`empty entry name in ${map}`);
    if (keys.has(name)) throw new InvalidWriteError(`update names the entry ${map}.${name} more than once`);
    keys.add(name);
  };
  for (const name in change.set) if (change.set[name] !== undefined) key(name);
  for (const name of change.remove ?? []) key(name);
  return keys.size;
}

function checkUpdate(op: UpdateOp): void {
  // Plain loops over the op's own objects: this runs for every update of every transaction.
  const names = new Set<string>();
  const name = (attr: string) => {
    if (names.has(attr)) throw new InvalidWriteError('update names the same attribute more than once');
    if (KEY_ATTRS.has(attr)) throw new InvalidWriteError(`cannot update key attribute ${attr}`);
    if (attr === '') throw new InvalidWriteError('empty attribute name in update');
    names.add(attr);
  };
  for (const attr in op.set) {
    const value = op.set[attr];
    if (value === undefined) continue;
    name(attr);
    checkIndexKey(attr, value);
  }
  for (const attr of op.remove ?? []) name(attr);
  for (const attr in op.add) {
    name(attr);
    if (INDEX_KEY_ATTRS.has(attr)) throw new InvalidWriteError(`cannot add to index key ${attr}`);
    if (!Number.isFinite(op.add[attr])) throw new InvalidWriteError(`add.${attr} must be a finite number`);
  }
  for (const map in op.entries) {
    if (checkEntries(map, op.entries[map] ?? {}) === 0) continue;
    // A map whose entries change is not also set, removed or added to (DynamoDB: overlapping paths).
    name(map);
    if (INDEX_KEY_ATTRS.has(map)) throw new InvalidWriteError(`cannot change entries of index key ${map}`);
  }
  if (names.size === 0) throw new InvalidWriteError('update sets, removes or adds nothing');
}

/** Validates one write; throws InvalidWriteError. */
export function validateOp(op: WriteOp): void {
  checkKey(opKey(op));
  if (op.type === 'put') {
    for (const attr of INDEX_KEY_ATTRS) checkIndexKey(attr, op.item[attr]);
  }
  if (op.type === 'update') checkUpdate(op);
  if (op.condition) checkCondition(op.condition);
}

/** Validates a transaction: at most 100 ops, each item at most once, each op well formed. */
export function validateTransaction(ops: WriteOp[]): void {
  if (ops.length > MAX_TRANSACTION_OPS) {
    throw new InvalidWriteError(
      `a transaction holds at most ${MAX_TRANSACTION_OPS} operations (got ${ops.length})`,
    );
  }
  const seen = new Map<string, Set<string>>();
  for (const op of ops) {
    validateOp(op);
    const { pk, sk } = opKey(op);
    let sks = seen.get(pk);
    if (!sks) {
      sks = new Set();
      seen.set(pk, sks);
    }
    if (sks.has(sk)) throw new InvalidWriteError(`a transaction touches ${pk} / ${sk} more than once`);
    sks.add(sk);
  }
}

/** Compares strings by UTF-8 bytes, the order DynamoDB (and SQLite's BINARY collation) uses. */
export function compareUtf8(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** Validates a query and returns its page size. */
export function validateQuery(input: QueryInput): number {
  const limit = input.limit ?? MAX_QUERY_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_QUERY_LIMIT) {
    throw new InvalidWriteError(`limit must be an integer from 1 to ${MAX_QUERY_LIMIT}`);
  }
  if (input.pk === '') throw new InvalidWriteError('query pk must be non-empty');
  const sk = input.sk;
  if (!sk) return limit;
  const values = sk.op === 'between' ? [sk.low, sk.high] : sk.op === 'beginsWith' ? [sk.prefix] : [sk.value];
  if (values.some((value) => value === ''))
    throw new InvalidWriteError('sort-key condition values must be non-empty');
  if (sk.op === 'between' && compareUtf8(sk.low, sk.high) > 0) {
    throw new InvalidWriteError('between needs low <= high');
  }
  return limit;
}

/** Validates keys for batchGet and drops duplicates. */
export function uniqueKeys(keys: Key[]): Key[] {
  if (keys.length > 100) throw new InvalidWriteError(`batchGet takes at most 100 keys (got ${keys.length})`);
  const byId = new Map<string, Key>();
  for (const key of keys) {
    checkKey(key);
    byId.set(JSON.stringify([key.pk, key.sk]), { pk: key.pk, sk: key.sk });
  }
  return [...byId.values()];
}
