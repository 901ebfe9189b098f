import { entityRefInput } from '../catalog/entities.ts';
import type { BuiltinTool } from '../platform/mcp-tool.ts';
import { READS } from '../platform/mcp-tool.ts';
import { entityWithState, someOf, toolResult } from '../platform/tool-answers.ts';
import type { BoardToolDeps } from './board-reads.ts';
import { entityRef, load, walk } from './board-reads.ts';

/** get_blast_radius: every entity that depends on one, directly or transitively. */
export const getBlastRadius: BuiltinTool<BoardToolDeps> = {
  name: 'get_blast_radius',
  offer: {
    toolset: 'catalog-ops',
    order: 80,
    version: '2.2.0',
    description:
      'Every entity that depends on this one, directly or transitively (depends_on relations), with its state.',
    inputSchema: entityRefInput,
  },
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
