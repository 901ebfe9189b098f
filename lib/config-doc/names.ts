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
