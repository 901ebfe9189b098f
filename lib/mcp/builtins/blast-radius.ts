import type { BoardToolDeps, BuiltinTool } from '../tool-kit/deps.ts';
import { READS } from '../tool-kit/deps.ts';
import { entityRef, load, walk } from '../tool-kit/graph.ts';
import { toolResult } from '../tool-kit/result.ts';
import { entityWithState, someOf } from './names.ts';

/** get_blast_radius: every entity that depends on one, directly or transitively. */
export const getBlastRadius: BuiltinTool<BoardToolDeps> = {
  name: 'get_blast_radius',
  annotations: { title: 'Blast radius', ...READS },
  handler: async (deps, caller, args) => {
    const entity = await load(deps, caller.tenantId, args);
    const { reached, truncated } = await walk(deps, caller.tenantId, entity.id, false);
    const notUp = reached.filter((e) => e.state !== 'up');
    const summary =
      reached.length === 0
        ? `Nothing depends on ${entityWithState(entity)}.`
        : `${reached.length} entities depend on ${entityWithState(entity)}, directly or transitively: ` +
          `${someOf(reached.map(entityWithState), 20)}. ${notUp.length} of them are not up.`;
    return toolResult(summary, {
      entity: entityRef(entity),
      dependents: reached,
      truncated,
    });
  },
};
