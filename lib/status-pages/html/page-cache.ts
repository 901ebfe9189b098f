/**
 * A per-process cache of loaded values by key, each kept `ttlMs` from the moment its load began,
 * at most `maxEntries` of them (least recently used out first). Concurrent misses of one key share
 * one load (single flight): the entry holds the load's promise from its start. A load that fails
 * is dropped at once, so the next request tries again; `keep` decides which results are kept (the
 * others answer the callers that waited on them and are dropped too).
 *
 * Hand-written on a Map (insertion order is recency order: a hit is moved to the end) rather than
 * taken from a package: none of the project's dependencies has one, and a TTL that reads the
 * injected clock (so tests run on fake time) plus single flight are a few lines here, while the
 * usual packages read Date.now or performance.now themselves.
 */

export interface LoadCache<T> {
  /** The cached value of `key`, or `load()`'s (shared with every concurrent caller). */
  get(key: string, load: () => Promise<T>): Promise<T>;
  /** Entries held now (tests, metrics). */
  size(): number;
}

export function createLoadCache<T>(options: {
  clock: { now(): number };
  ttlMs: number;
  maxEntries: number;
  /** Whether a loaded value is kept for `ttlMs` (default: every one). */
  keep?: (value: T) => boolean;
}): LoadCache<T> {
  const entries = new Map<string, { expiresAt: number; value: Promise<T> }>();
  const keep = options.keep ?? (() => true);

  return {
    get(key, load) {
      const now = options.clock.now();
      const hit = entries.get(key);
      entries.delete(key);
      if (hit && now < hit.expiresAt) {
        entries.set(key, hit);
        return hit.value;
      }
      const entry = { expiresAt: now + options.ttlMs, value: load() };
      entries.set(key, entry);
      const drop = () => {
        if (entries.get(key) === entry) entries.delete(key);
      };
      entry.value.then((value) => {
        if (!keep(value)) drop();
      }, drop);
      // The oldest first: Map iteration follows insertion, and each hit re-inserts its entry.
      for (const oldest of entries.keys()) {
        if (entries.size <= options.maxEntries) break;
        entries.delete(oldest);
      }
      return entry.value;
    },
    size: () => entries.size,
  };
}
