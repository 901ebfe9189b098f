import { type AnyConfigKind, DOC_KEYS, type DocKey } from './kind.ts';
import type { KindSet } from './plan/document.ts';

/**
 * The kinds of the configuration document, as the features declare them: each kind is a file of
 * its feature (`defineKind`), declared on the feature's mount (its `configKinds`,
 * lib/features/feature-routes.ts), and the engine takes the set the mount list gives. Keyed by
 * DOC_KEYS, in their order (the engine walks them so); a key declared twice, or one the document
 * has no list for, is refused.
 */
export function kindSetOf(kinds: readonly AnyConfigKind[]): KindSet {
  const byKey = new Map<DocKey, AnyConfigKind>();
  for (const kind of kinds) {
    if (!DOC_KEYS.includes(kind.key)) throw new Error(`the configuration kind ${kind.key} has no list`);
    if (byKey.has(kind.key)) throw new Error(`the configuration kind ${kind.key} is declared twice`);
    byKey.set(kind.key, kind);
  }
  return Object.fromEntries(DOC_KEYS.flatMap((key) => (byKey.has(key) ? [[key, byKey.get(key)]] : [])));
}

/** The app's kinds: one for each list of the document, or a list no feature declares is refused. */
export function documentKinds(kinds: readonly AnyConfigKind[]): Record<DocKey, AnyConfigKind> {
  const set = kindSetOf(kinds);
  const missing = DOC_KEYS.filter((key) => !set[key]);
  if (missing.length > 0)
    throw new Error(`no feature declares the configuration kinds ${missing.join(', ')}`);
  return set as Record<DocKey, AnyConfigKind>;
}

/** The engine's set of kinds, keyed by the document's lists. */
export type { KindSet };
