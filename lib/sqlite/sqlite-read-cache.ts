import { performance } from 'node:perf_hooks';

/**
 * The event loop's cache of item texts, for the sqlite table whose writes run on the writer
 * thread. A read connection loses its page cache whenever another connection commits (SQLite
 * WAL), so with a busy writer every point read walked the b-trees from the file again; this keeps
 * recently read items instead. Writes made through the table refresh their entries from the
 * writer's answer before any caller hears back, so the table reads its own writes exactly. Writes
 * by another process (the operator CLI) are seen once an entry is `maxAgeMs` old; a failed
 * transaction drops the entries of the items it touched (a stale read may have caused it).
 */
export interface ReadCache {
  /** The item's stored text, or undefined when not cached (or too old). */
  get(key: string): string | undefined;
  /** Caches an item just read from the database. */
  set(key: string, text: string): void;
  /** A committed write: the new text replaces a cached entry (items not cached stay out). */
  written(key: string, text: string | undefined): void;
  drop(key: string): void;
  readonly size: number;
}

export function createReadCache(options: {
  maxEntries: number;
  maxAgeMs: number;
  now?: () => number;
}): ReadCache {
  const now = options.now ?? (() => performance.now());
  // Insertion order is age order: a refreshed entry moves to the end; the oldest leave first.
  const entries = new Map<string, { text: string; at: number }>();
  const put = (key: string, text: string) => {
    entries.delete(key);
    entries.set(key, { text, at: now() });
    if (entries.size > options.maxEntries) {
      const oldest = entries.keys().next();
      if (!oldest.done) entries.delete(oldest.value);
    }
  };
  return {
    get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (now() - entry.at > options.maxAgeMs) {
        entries.delete(key);
        return undefined;
      }
      return entry.text;
    },
    set: put,
    written(key, text) {
      if (!entries.has(key)) return;
      if (text === undefined) entries.delete(key);
      else put(key, text);
    },
    drop(key) {
      entries.delete(key);
    },
    get size() {
      return entries.size;
    },
  };
}
