import { ValidationError } from '../../platform/errors.ts';
import {
  type Api,
  type Current,
  type DocKey,
  keysInOrder,
  type NameIndex,
  type PlannedChange,
} from '../kind.ts';
import { createNameIndex } from '../names.ts';
import { diffFields } from './diff.ts';
import type { ConfigDocument, KindSet } from './document.ts';

/** The tenant's objects per list, by identity, and the index of their names. */
export interface TenantState {
  names: NameIndex;
  current: Map<DocKey, Map<string, Current<Record<string, unknown>>>>;
}

/** Reads every kind in document order, so a kind's read finds the identities of the kinds before it. */
export async function readTenant(kinds: KindSet, api: Api): Promise<TenantState> {
  const names = createNameIndex();
  const current: TenantState['current'] = new Map();
  for (const key of keysInOrder(kinds)) {
    const kind = kinds[key];
    if (!kind) continue;
    const byIdentity = new Map<string, Current<Record<string, unknown>>>();
    for (const object of await kind.read(api, names)) {
      const identity = kind.identity(object.doc);
      byIdentity.set(identity, object);
      names.set(key, identity, object.id);
    }
    current.set(key, byIdentity);
  }
  return { names, current };
}

/**
 * Every reference of the document must name an object of the document or of the tenant (with
 * prune, of the document only: the tenant's others are about to go). 400 naming the object and
 * the reference.
 */
export function checkReferences(kinds: KindSet, doc: ConfigDocument, state: TenantState, prune: boolean) {
  const inDocument = new Map<DocKey, Set<string>>();
  for (const key of keysInOrder(kinds)) {
    const kind = kinds[key];
    inDocument.set(key, new Set((doc.lists[key] ?? []).map((object) => kind?.identity(object) ?? '')));
  }
  const details: { path: string; message: string }[] = [];
  for (const key of keysInOrder(kinds)) {
    const kind = kinds[key];
    if (!kind) continue;
    (doc.lists[key] ?? []).forEach((object, index) => {
      for (const ref of kind.references(object)) {
        const known =
          inDocument.get(ref.key)?.has(ref.identity) ||
          (!prune && state.names.id(ref.key, ref.identity) !== undefined);
        if (known) continue;
        const where = prune ? 'the document' : 'the document or the tenant';
        details.push({
          path: `${key}[${index}]`,
          message: `${kind.noun} ${kind.identity(object)} refers to ${ref.key} ${ref.identity}, which is not in ${where}.`,
        });
      }
    });
  }
  const first = details[0];
  if (first) throw new ValidationError(`unknown reference: ${first.message.replace(/\.$/, '')}`, details);
}

/**
 * The changes that bring the tenant to the document: creates and updates (only of objects that
 * differ, with their fields) in document order, then with prune the deletes of the tenant's
 * objects the document leaves out, in reverse order. Answers how many objects were unchanged too.
 */
export function planChanges(kinds: KindSet, doc: ConfigDocument, state: TenantState, prune: boolean) {
  const changes: PlannedChange[] = [];
  let unchanged = 0;
  for (const key of keysInOrder(kinds)) {
    const kind = kinds[key];
    if (!kind) continue;
    const current = state.current.get(key) ?? new Map();
    for (const object of doc.lists[key] ?? []) {
      const id = kind.identity(object);
      const existing = current.get(id);
      if (!existing) {
        changes.push({ op: 'create', kind: key, id });
        continue;
      }
      const fields = diffFields(existing.doc, object);
      if (fields.length > 0) changes.push({ op: 'update', kind: key, id, fields });
      else unchanged++;
    }
  }
  if (prune) {
    for (const key of [...keysInOrder(kinds)].reverse()) {
      const kind = kinds[key];
      if (!kind) continue;
      const kept = new Set((doc.lists[key] ?? []).map((object) => kind.identity(object)));
      const gone = [...(state.current.get(key)?.keys() ?? [])].filter((id) => !kept.has(id)).sort();
      for (const id of gone) changes.push({ op: 'delete', kind: key, id });
    }
  }
  return { changes, unchanged };
}
