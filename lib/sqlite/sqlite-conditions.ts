import { type Comparator, type Condition, InvalidWriteError, type UpdateOp } from '../store/table.ts';
import { compareUtf8, definedEntrySets, definedSet, entryRemovals } from '../store/validation.ts';

/**
 * DynamoDB condition and update semantics in plain JS, for the sqlite engine. Verified against
 * DynamoDB Local: a comparison with an absent attribute or a value of another type is false,
 * except `<>`, which is true; strings order by UTF-8 bytes.
 */

function attribute(item: Record<string, unknown> | undefined, attr: string): unknown {
  return item && Object.hasOwn(item, attr) ? item[attr] : undefined;
}

function order(actual: unknown, expected: string | number | boolean): number | undefined {
  if (typeof expected === 'string' && typeof actual === 'string') return compareUtf8(actual, expected);
  if (typeof expected === 'number' && typeof actual === 'number') return actual - expected;
  return undefined;
}

function compare(actual: unknown, op: Comparator, expected: string | number | boolean): boolean {
  if (op === '=') return actual === expected;
  if (op === '<>') return actual !== expected;
  const result = order(actual, expected);
  if (result === undefined) return false;
  switch (op) {
    case '<':
      return result < 0;
    case '<=':
      return result <= 0;
    case '>':
      return result > 0;
    case '>=':
      return result >= 0;
  }
}

/** Evaluates a condition against the current item (undefined when absent). */
export function evaluateCondition(item: Record<string, unknown> | undefined, condition: Condition): boolean {
  switch (condition.kind) {
    case 'itemExists':
      return item !== undefined;
    case 'itemNotExists':
      return item === undefined;
    case 'attrExists':
      return attribute(item, condition.attr) !== undefined;
    case 'attrNotExists':
      return attribute(item, condition.attr) === undefined;
    case 'compare':
      return compare(attribute(item, condition.attr), condition.op, condition.value);
    case 'and':
      return condition.conditions.every((c) => evaluateCondition(item, c));
    case 'or':
      return condition.conditions.some((c) => evaluateCondition(item, c));
  }
}

/** The item after an update (UpdateItem semantics: an absent item starts as its key). */
export function applyUpdate(
  current: Record<string, unknown> | undefined,
  op: UpdateOp,
): Record<string, unknown> {
  const next: Record<string, unknown> = current ? { ...current } : { pk: op.key.pk, sk: op.key.sk };
  for (const [name, value] of definedSet(op)) next[name] = value;
  for (const name of op.remove ?? []) delete next[name];
  const maps = new Map<string, Record<string, unknown>>();
  const map = (name: string) => {
    let entries = maps.get(name);
    if (!entries) {
      const value = next[name];
      // DynamoDB refuses a document path into an absent attribute or one that is not a map.
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        throw new InvalidWriteError(`entries of ${name}: the attribute is not a map`);
      }
      entries = { ...(value as Record<string, unknown>) };
      maps.set(name, entries);
      next[name] = entries;
    }
    return entries;
  };
  for (const [name, key, value] of definedEntrySets(op)) map(name)[key] = value;
  for (const [name, key] of entryRemovals(op)) delete map(name)[key];
  for (const [name, amount] of Object.entries(op.add ?? {})) {
    const base = next[name] ?? 0;
    if (typeof base !== 'number') throw new InvalidWriteError(`add.${name}: the attribute is not a number`);
    next[name] = base + amount;
  }
  return next;
}
