import type { PlannedChange, PlanWarning } from '../kind.ts';
import { envReferences } from '../secrets.ts';
import type { ConfigDocument, KindSet } from './document.ts';

/**
 * The plan's warnings: each `${NAME}` still unresolved in an object the plan creates. The CLI
 * resolves the set ones before it sends a document, so what is left is unset, and apply refuses
 * to create an object that refers to it (lib/config-doc/plan/apply.ts); an update keeps the stored
 * secret instead, so it warns of nothing.
 */
export function unsetWarnings(kinds: KindSet, doc: ConfigDocument, changes: PlannedChange[]): PlanWarning[] {
  const uses = new Map<string, string[]>();
  for (const change of changes) {
    const kind = kinds[change.kind];
    if (change.op !== 'create' || !kind) continue;
    const object = doc.lists[change.kind]?.find((o) => kind.identity(o) === change.id);
    for (const ref of envReferences(object)) {
      const at = `${kind.noun} ${change.id} ${ref.path}`;
      uses.set(ref.name, [...(uses.get(ref.name) ?? []), at]);
    }
  }
  return [...uses].map(([variable, used_at]) => ({
    variable,
    used_at,
    message: `\${${variable}} is not set: apply will refuse to create ${used_at.join(', ')}`,
  }));
}
