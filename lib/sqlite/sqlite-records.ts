/** Helpers for the JSON items the sqlite engine stores. */

export type JsonObject = Record<string, unknown>;

/** Structural equality of two JSON values (object key order ignored). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => sameJson(v, b[i]))
    );
  }
  const aKeys = Object.keys(a);
  const bEntries = new Map(Object.entries(b));
  return (
    aKeys.length === bEntries.size &&
    Object.entries(a).every(([k, v]) => bEntries.has(k) && sameJson(v, bEntries.get(k)))
  );
}
