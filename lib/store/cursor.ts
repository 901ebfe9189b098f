import * as z from 'zod';
import { type IndexName, InvalidWriteError } from './table.ts';

/** The partition and sort attribute names of the table or of a GSI. */
export function indexKeyNames(index: IndexName | undefined): { pk: string; sk: string } {
  return index ? { pk: `${index}pk`, sk: `${index}sk` } : { pk: 'pk', sk: 'sk' };
}

/** The attributes that position a query: the table key plus the index key (DynamoDB's LastEvaluatedKey). */
export function positionAttrs(index: IndexName | undefined): string[] {
  return index ? ['pk', 'sk', `${index}pk`, `${index}sk`] : ['pk', 'sk'];
}

const cursorSchema = z.record(z.string(), z.string());

/** An opaque cursor: base64url JSON of the last evaluated key. */
export function encodeCursor(key: Record<string, string>): string {
  return Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');
}

/** The position of `item` in a query on `index`. */
export function positionOf(
  item: Record<string, unknown>,
  index: IndexName | undefined,
): Record<string, string> {
  const key: Record<string, string> = {};
  for (const attr of positionAttrs(index)) {
    const value = item[attr];
    if (typeof value === 'string') key[attr] = value;
  }
  return key;
}

/** Decodes a cursor for a query on `index` and partition `pk`; throws InvalidWriteError if it does not fit. */
export function decodeCursor(
  cursor: string,
  index: IndexName | undefined,
  pk: string,
): Record<string, string> {
  let parsed: Record<string, string>;
  try {
    parsed = cursorSchema.parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
  } catch (error) {
    throw new InvalidWriteError('invalid cursor', { cause: error });
  }
  const attrs = positionAttrs(index);
  const fits =
    Object.keys(parsed).length === attrs.length &&
    attrs.every((attr) => typeof parsed[attr] === 'string') &&
    parsed[indexKeyNames(index).pk] === pk;
  if (!fits) throw new InvalidWriteError('cursor does not belong to this query');
  return parsed;
}
