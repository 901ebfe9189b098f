import { catalogBuiltins } from './catalog.ts';
import { checkBuiltins } from './checks.ts';
import type { Builtin, BuiltinDeps } from './deps.ts';
import { graphBuiltins } from './graph.ts';
import { statusBuiltins } from './status.ts';

/** Every built-in tool by name: the catalog-ops tools of SPEC.md plus get_blast_radius and explain_entity_state. */
export function createBuiltins(deps: BuiltinDeps): ReadonlyMap<string, Builtin> {
  return new Map(
    Object.entries({
      ...statusBuiltins(deps),
      ...catalogBuiltins(deps),
      ...checkBuiltins(deps),
      ...graphBuiltins(deps),
    }),
  );
}
