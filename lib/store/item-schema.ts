import type { Item } from './table.ts';

/**
 * Parses an item read from either engine: the generic keys and `entity` are required strings,
 * the index keys strings, `ttl` a number and `schema_version` a positive integer when present
 * (absent on items older than versions, which read as version 1), everything else is open (each store
 * parses its own attributes with its schema). Hand-written rather than zod: it runs on every read.
 */
export function parseStoredItem(raw: unknown): Item {
  const problem = storedItemProblem(raw);
  if (problem) throw new StoredItemError(problem);
  return raw as Item;
}

/** The item if `raw` is one, else undefined (for filters that must not throw mid-transaction). */
export function asItem(raw: unknown): Item | undefined {
  return storedItemProblem(raw) ? undefined : (raw as Item);
}

/** A stored item without the generic shape (a bug or a damaged row, never user input). */
export class StoredItemError extends Error {
  override name = 'StoredItemError';
}

const REQUIRED = ['pk', 'sk', 'entity'] as const;
const OPTIONAL_STRINGS = ['gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk'] as const;

function storedItemProblem(raw: unknown): string | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return 'a stored item must be an object';
  const item = raw as Record<string, unknown>;
  for (const attr of REQUIRED) {
    if (typeof item[attr] !== 'string') return `a stored item's ${attr} must be a string`;
  }
  for (const attr of OPTIONAL_STRINGS) {
    if (item[attr] !== undefined && typeof item[attr] !== 'string') {
      return `a stored item's ${attr} must be a string when present`;
    }
  }
  if (item.ttl !== undefined && typeof item.ttl !== 'number') return "a stored item's ttl must be a number";
  const version = item.schema_version;
  if (version !== undefined && !(typeof version === 'number' && Number.isInteger(version) && version >= 1)) {
    return "a stored item's schema_version must be a positive integer when present";
  }
  return undefined;
}
