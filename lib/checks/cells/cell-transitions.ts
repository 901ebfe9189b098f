import { parseEntityState, readEntityItem } from '../../catalog/entity-items.ts';
import type { CheckDefinitionRecord } from '../../check-types/check-record.ts';
import type { MemberTransition } from '../../domain/states.ts';
import { type Clock, isoTime } from '../../platform/clock.ts';
import { deterministicId } from '../../platform/ids.ts';
import { mergeCounterUpdates } from '../../store/merge-updates.ts';
import type { Table, WriteOp } from '../../store/table.ts';
import { entityStateOps, withCause } from '../definitions/entity-state-ops.ts';
import { type TransitionRecord, transitionRecordedOp } from '../results/transition-items.ts';
import type { CellRecord } from './cell-items.ts';

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
    const entity = parseEntityState(item);
    const states = { ...(entity.check_states ?? {}) };
    const group: WriteOp[] = [];
    const recorded: TransitionRecord[] = [];
    for (const change of changes) {
      states[change.check_id] = change.to;
      const transition: TransitionRecord = {
        // One per check and slot: a redelivered slot cannot record it twice.
        id: deterministicId('trn', Date.parse(slot), `${change.check_id}:${slot}`),
        tenant_id: cell.tenant_id,
        kind: 'check',
        entity_id: entity.id,
        entity_name: entity.name,
        blueprint_slug: entity.blueprint_slug,
        entity_slug: entity.slug,
        check_id: change.check_id,
        from_state: change.from,
        to_state: change.to,
        reason: change.reason,
        created_at: isoTime(nowMs),
      };
      recorded.push(transition);
      group.push(transitionRecordedOp(transition, retentionDays));
    }
    // The slot's moves name the entity's change: the last one in its new state, with its own reason.
    const [last, ...earlier] = [...changes].reverse() as [MemberTransition, ...MemberTransition[]];
    const entityOps = entityStateOps(
      await withCause(deps.table, {
        tenantId: cell.tenant_id,
        entity,
        checkStates: states,
        checkId: last.check_id,
        reason: last.reason,
        otherReasons: Object.fromEntries(earlier.map((change) => [change.check_id, change.reason])),
        nowMs,
        retentionDays,
      }),
    );
    group.push(...entityOps.ops);
    if (entityOps.transition) recorded.push(entityOps.transition);
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
