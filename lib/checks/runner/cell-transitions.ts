import { parseEntityState, readEntityItem } from '../../catalog/entities.ts';
import type { CheckDefinitionRecord } from '../../check-types/check-record.ts';
import type { MemberTransition } from '../../domain/states.ts';
import type { Clock } from '../../platform/clock.ts';
import { deterministicId } from '../../platform/ids.ts';
import { mergeCounterUpdates } from '../../store/merge-updates.ts';
import type { Table, WriteOp } from '../../store/table.ts';
import type { CellRecord } from '../cells/cell-items.ts';
import { checkMovesOps } from '../definitions/entity-state-ops.ts';
import type { TransitionRecord } from '../items/transition-items.ts';

/**
 * The transitions of the moved members and their entities' writes, entity by entity, as many
 * entities as fit in one transaction beside the state's op (`budget` ops): the rest wait for the
 * next round. Answers the ops, the transitions and the checks they cover.
 */
export async function cellTransitionOps(
  deps: { table: Table; clock: Clock },
  cell: CellRecord,
  members: CheckDefinitionRecord[],
  moved: MemberTransition[],
  slot: string,
  retentionDays: number,
  budget: number,
): Promise<{ ops: WriteOp[]; transitions: TransitionRecord[]; covered: Set<string> }> {
  const byId = new Map(members.map((m) => [m.id, m]));
  const ops: WriteOp[] = [];
  const transitions: TransitionRecord[] = [];
  const covered = new Set<string>();
  const nowMs = deps.clock.now();
  const byEntity = new Map<string, MemberTransition[]>();
  for (const change of moved) {
    const member = byId.get(change.check_id);
    if (!member) continue;
    const key = `${member.blueprint_slug}/${member.entity_slug}`;
    byEntity.set(key, [...(byEntity.get(key) ?? []), change]);
  }
  for (const [key, changes] of byEntity) {
    const [blueprint, slug] = key.split('/') as [string, string];
    const item = await readEntityItem(deps.table, cell.tenant_id, blueprint, slug);
    // An entity deleted meanwhile: its checks go with its purge; their state still moves.
    if (!item) {
      for (const change of changes) covered.add(change.check_id);
      continue;
    }
    // The slot's moves name the entity's change: the last one in its new state, with its own reason.
    const { ops: group, transitions: recorded } = await checkMovesOps(deps.table, {
      tenantId: cell.tenant_id,
      entity: parseEntityState(item),
      moves: changes,
      // One per check and slot: a redelivered slot cannot record it twice.
      transitionId: (change) => deterministicId('trn', Date.parse(slot), `${change.check_id}:${slot}`),
      nowMs,
      retentionDays,
    });
    // The tenant's status counters are one item: the entities' moves of it fold into one op.
    if (mergeCounterUpdates([...ops, ...group]).length > budget) {
      if (ops.length > 0) break;
      throw new Error(`one entity's checks of cell ${cell.id} moved too many at once`);
    }
    ops.push(...group);
    transitions.push(...recorded);
    for (const change of changes) covered.add(change.check_id);
  }
  return { ops, transitions, covered };
}
