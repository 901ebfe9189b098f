import { type AnyConfigKind, type DocKey, documentOrder } from './kind.ts';
import type { KindSet } from './plan/document.ts';

/**
 * The kinds of the configuration document, as the features declare them: each kind is a file of
 * its feature (`defineKind`), declared on the feature's mount (its `configKinds`,
 * lib/features/feature-routes.ts), and the engine takes the set the mount list gives. Keyed by
 * their lists in the document's order, which the kinds' places give (`after`, documentOrder); a
 * key declared twice, a place after a list no kind declares, or a circle of places is refused.
 */
export function kindSetOf(kinds: readonly AnyConfigKind[]): KindSet {
  const byKey = new Map<DocKey, AnyConfigKind>();
  for (const kind of kinds) {
    if (byKey.has(kind.key)) throw new Error(`the configuration kind ${kind.key} is declared twice`);
    byKey.set(kind.key, kind);
  }
  return Object.fromEntries(documentOrder(kinds).map((key) => [key, byKey.get(key)]));
}

/** The app's kinds, in the document's order: a set with no kind is refused. */
export function documentKinds(kinds: readonly AnyConfigKind[]): Record<DocKey, AnyConfigKind> {
  const set = kindSetOf(kinds);
  if (Object.keys(set).length === 0) throw new Error('no feature declares a configuration kind');
  return set as Record<DocKey, AnyConfigKind>;
}

/** The engine's set of kinds, keyed by the document's lists. */
export type { KindSet };
