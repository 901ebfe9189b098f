import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';

/**
 * An item's size by DynamoDB's published rules (CapacityUnitCalculations in the DynamoDB developer
 * guide): attribute names plus values; strings and binaries by their bytes; a number by one byte
 * per two significant digits plus one; booleans and nulls one byte; lists and maps three bytes plus
 * their elements, each element one more byte. Capacity follows from it: writes per started 1 KB,
 * reads per started 4 KB.
 */

export type StoredItem = Record<string, AttributeValue>;

const utf8 = (text: string) => Buffer.byteLength(text, 'utf8');

/** Significant digits of a number's text: sign, exponent, point and leading/trailing zeros dropped. */
function significantDigits(text: string): number {
  const mantissa = text.replace(/^[-+]/, '').split(/[eE]/)[0] ?? '';
  const digits = mantissa.replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
  return Math.max(1, digits.length);
}

const numberSize = (text: string) => Math.ceil(significantDigits(text) / 2) + 1;

/** The size of one attribute value, without its name. */
function valueSize(value: AttributeValue): number {
  if (value.S !== undefined) return utf8(value.S);
  if (value.N !== undefined) return numberSize(value.N);
  if (value.B !== undefined) return value.B.byteLength;
  if (value.BOOL !== undefined || value.NULL !== undefined) return 1;
  if (value.SS !== undefined) return value.SS.reduce((sum, s) => sum + utf8(s), 0);
  if (value.NS !== undefined) return value.NS.reduce((sum, n) => sum + numberSize(n), 0);
  if (value.BS !== undefined) return value.BS.reduce((sum, b) => sum + b.byteLength, 0);
  if (value.L !== undefined) return 3 + value.L.reduce((sum, v) => sum + 1 + valueSize(v), 0);
  if (value.M !== undefined) {
    return 3 + Object.entries(value.M).reduce((sum, [name, v]) => sum + 1 + utf8(name) + valueSize(v), 0);
  }
  throw new Error(`unknown attribute value type: ${Object.keys(value).join(',')}`);
}

/** The size of an item in bytes (0 for no item). */
export function itemSize(item: StoredItem | undefined): number {
  if (!item) return 0;
  return Object.entries(item).reduce((sum, [name, value]) => sum + utf8(name) + valueSize(value), 0);
}

/** Write units of a write touching `bytes` (at least one). */
export const writeUnits = (bytes: number) => Math.max(1, Math.ceil(bytes / 1024));

/** Strongly consistent read units of `bytes` read at once (at least one). */
export const readUnits = (bytes: number) => Math.max(1, Math.ceil(bytes / 4096));

/** A canonical text of an item, to tell whether a write changed it. */
export function canonical(value: unknown): string {
  if (value instanceof Uint8Array) return `b:${Buffer.from(value).toString('base64')}`;
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export const NO_ITEM = '(missing)';

/** What a read that found nothing was looking for: its sort key's first segment. */
export const missingLabel = (key: StoredItem | undefined) => `(missing ${key?.sk?.S?.split('#')[0] ?? '?'})`;

/** The item type of the first item that has one. */
export const entityOf = (...items: (StoredItem | undefined)[]) =>
  items.find((item) => item?.entity?.S !== undefined)?.entity?.S ?? NO_ITEM;

export const keyOf = (item: StoredItem): StoredItem => {
  const { pk, sk } = item;
  if (!pk || !sk) throw new Error('the meter prices items keyed by pk and sk');
  return { pk, sk };
};

/** An item the document client handed back, marshalled again to size it. */
export const remarshall = (item: Record<string, unknown>): StoredItem =>
  marshall(item, { removeUndefinedValues: true, convertClassInstanceToMap: true });
