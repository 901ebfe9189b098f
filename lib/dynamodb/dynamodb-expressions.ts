import { indexKeyNames } from '../store/cursor.ts';
import type { Condition, QueryInput, SortKeyCondition, UpdateOp } from '../store/table.ts';
import { definedEntrySets, definedSet, entryRemovals } from '../store/validation.ts';

/**
 * DynamoDB expression strings built from typed conditions. Every attribute name and value goes
 * through a placeholder (#n0, :v0); nothing from the caller is concatenated into an expression.
 */

export interface Placeholders {
  name(attr: string): string;
  value(value: unknown): string;
  /** ExpressionAttributeNames / Values, omitted when empty (DynamoDB rejects empty maps). */
  attributes(): {
    ExpressionAttributeNames?: Record<string, string>;
    ExpressionAttributeValues?: Record<string, unknown>;
  };
}

/** A fresh placeholder allocator for one request (names are reused, values are not). */
export function createPlaceholders(): Placeholders {
  const names: Record<string, string> = {};
  const byAttr = new Map<string, string>();
  const values: Record<string, unknown> = {};
  let valueCount = 0;
  return {
    name(attr) {
      let placeholder = byAttr.get(attr);
      if (!placeholder) {
        placeholder = `#n${byAttr.size}`;
        byAttr.set(attr, placeholder);
        names[placeholder] = attr;
      }
      return placeholder;
    },
    value(value) {
      const placeholder = `:v${valueCount}`;
      valueCount += 1;
      values[placeholder] = value;
      return placeholder;
    },
    attributes() {
      return {
        ...(byAttr.size > 0 ? { ExpressionAttributeNames: names } : {}),
        ...(valueCount > 0 ? { ExpressionAttributeValues: values } : {}),
      };
    },
  };
}

/** A ConditionExpression for a typed condition. */
export function conditionExpression(condition: Condition, p: Placeholders): string {
  switch (condition.kind) {
    case 'itemExists':
      return `attribute_exists(${p.name('pk')})`;
    case 'itemNotExists':
      return `attribute_not_exists(${p.name('pk')})`;
    case 'attrExists':
      return `attribute_exists(${p.name(condition.attr)})`;
    case 'attrNotExists':
      return `attribute_not_exists(${p.name(condition.attr)})`;
    case 'compare':
      return `${p.name(condition.attr)} ${condition.op} ${p.value(condition.value)}`;
    case 'and':
    case 'or': {
      const joiner = condition.kind === 'and' ? ' AND ' : ' OR ';
      return `(${condition.conditions.map((c) => conditionExpression(c, p)).join(joiner)})`;
    }
  }
}

/** An UpdateExpression (SET / REMOVE / ADD clauses) for an update op. */
export function updateExpression(op: UpdateOp, p: Placeholders): string {
  const clauses: string[] = [];
  const entry = (map: string, key: string) => `${p.name(map)}.${p.name(key)}`;
  const set = [
    ...definedSet(op).map(([attr, value]) => `${p.name(attr)} = ${p.value(value)}`),
    ...definedEntrySets(op).map(([map, key, value]) => `${entry(map, key)} = ${p.value(value)}`),
  ];
  if (set.length > 0) clauses.push(`SET ${set.join(', ')}`);
  const remove = [
    ...(op.remove ?? []).map((attr) => p.name(attr)),
    ...entryRemovals(op).map(([map, key]) => entry(map, key)),
  ];
  if (remove.length > 0) clauses.push(`REMOVE ${remove.join(', ')}`);
  const add = Object.entries(op.add ?? {}).map(([attr, amount]) => `${p.name(attr)} ${p.value(amount)}`);
  if (add.length > 0) clauses.push(`ADD ${add.join(', ')}`);
  return clauses.join(' ');
}

function sortKeyExpression(attr: string, sk: SortKeyCondition, p: Placeholders): string {
  switch (sk.op) {
    case 'between':
      return `${attr} BETWEEN ${p.value(sk.low)} AND ${p.value(sk.high)}`;
    case 'beginsWith':
      return `begins_with(${attr}, ${p.value(sk.prefix)})`;
    default:
      return `${attr} ${sk.op} ${p.value(sk.value)}`;
  }
}

/** A KeyConditionExpression for a query on the table or a GSI. */
export function keyConditionExpression(input: QueryInput, p: Placeholders): string {
  const names = indexKeyNames(input.index);
  const partition = `${p.name(names.pk)} = ${p.value(input.pk)}`;
  return input.sk ? `${partition} AND ${sortKeyExpression(p.name(names.sk), input.sk, p)}` : partition;
}
