import type { Condition } from './table.ts';

/** Holds while the counter `attr` (absent = 0) is below `limit`; callers reject limit <= 0 before writing. */
export function belowLimit(attr: string, limit: number): Condition {
  return {
    kind: 'or',
    conditions: [
      { kind: 'attrNotExists', attr },
      { kind: 'compare', attr, op: '<', value: limit },
    ],
  };
}

/** Holds while `attr` still has the value read earlier (absent when `value` is undefined). */
export function unchanged(attr: string, value: string | number | undefined): Condition {
  return value === undefined ? { kind: 'attrNotExists', attr } : { kind: 'compare', attr, op: '=', value };
}
