import { type FieldChange, SECRET_PLACEHOLDER } from '../kind.ts';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Equal as JSON values, whatever the order of object keys; `current` is the tenant's side, where a
 * stored secret (`********`, inside an array too: a check's own channels) equals any value.
 */
function sameValue(current: unknown, doc: unknown): boolean {
  const a = current;
  const b = doc;
  if (a === b || a === SECRET_PLACEHOLDER) return true;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((item, i) => sameValue(item, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const key of keys) if (!sameValue(a[key], b[key])) return false;
    return true;
  }
  return false;
}

/**
 * The fields in which `doc` (the document's form) differs from `current` (the tenant's), each by
 * its dotted path (`config.url`, `fields.tier`). Nested objects are compared field by field and
 * arrays whole (an array is one value to the API: a list of assertions is replaced, not patched).
 * A stored secret reads as `********` and cannot be compared, so it never differs (whether the
 * document holds a value or an unresolved `${NAME}` for it).
 */
export function diffFields(current: unknown, doc: unknown, prefix = ''): FieldChange[] {
  if (current === SECRET_PLACEHOLDER) return [];
  if (isPlainObject(current) && isPlainObject(doc)) {
    const changes: FieldChange[] = [];
    const keys = new Set([...Object.keys(current), ...Object.keys(doc)]);
    for (const key of [...keys].sort()) {
      const path = prefix === '' ? key : `${prefix}.${key}`;
      changes.push(...diffFields(current[key], doc[key], path));
    }
    return changes;
  }
  if (sameValue(current, doc)) return [];
  return [{ path: prefix || '.', from: current, to: doc }];
}
