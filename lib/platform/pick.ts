/**
 * The fields of `record` that `keys` names, in that order: an allow-list copy, as a view that names
 * what it shows is (a field added to the record stays out of the view until it is named).
 */
export function pick<T extends object, K extends keyof T>(record: T, keys: readonly K[]): Pick<T, K> {
  const picked: Partial<Pick<T, K>> = {};
  for (const key of keys) picked[key] = record[key];
  return picked as Pick<T, K>;
}
