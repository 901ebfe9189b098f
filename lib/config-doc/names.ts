import { ConflictError } from '../platform/errors.ts';
import type { DocKey, NameIndex } from './kind.ts';

/**
 * The NameIndex of one plan or apply (lib/config-doc/kind.ts): identities and ids per kind, both
 * ways. It lives for one request only, filled from the tenant's objects and from what the apply
 * creates, so it is never stale across requests.
 */
export function createNameIndex(): NameIndex {
  const ids = new Map<DocKey, Map<string, string>>();
  const identities = new Map<DocKey, Map<string, string>>();
  const mapOf = (maps: Map<DocKey, Map<string, string>>, key: DocKey) => {
    let map = maps.get(key);
    if (!map) {
      map = new Map();
      maps.set(key, map);
    }
    return map;
  };
  return {
    id: (key, identity) => ids.get(key)?.get(identity),
    identity: (key, id) => identities.get(key)?.get(id),
    set(key, identity, id) {
      const previous = mapOf(ids, key).get(identity);
      if (previous !== undefined) mapOf(identities, key).delete(previous);
      mapOf(ids, key).set(identity, id);
      mapOf(identities, key).set(id, identity);
    },
    remove(key, identity) {
      const id = ids.get(key)?.get(identity);
      if (id === undefined) return;
      ids.get(key)?.delete(identity);
      identities.get(key)?.delete(id);
    },
  };
}

/**
 * The API lets two objects of some kinds share a name, and the document names them by name, so a
 * tenant with two of one name has no document form until one is renamed: 409 naming each group
 * (`"nightly" (act_1, act_2)`). `what` is the list in words: `escalation policies`.
 */
export function requireUniqueNames(what: string, objects: { id: string; name: string }[]): void {
  const byName = new Map<string, string[]>();
  for (const o of objects) byName.set(o.name, [...(byName.get(o.name) ?? []), o.id]);
  const shared = [...byName].filter(([, ids]) => ids.length > 1);
  if (shared.length > 0)
    throw new ConflictError(
      `${what} are named by their name in the document, and the tenant has several with one name: ${shared
        .map(([name, ids]) => `${JSON.stringify(name)} (${ids.join(', ')})`)
        .join('; ')}; rename all but one`,
    );
}
