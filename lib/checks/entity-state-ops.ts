import { z } from 'zod';
import { catalogKeys } from '../catalog/catalog-keys.ts';
import type { CheckState, State } from '../domain/check-state.ts';
import { aggregateEntityState } from '../domain/entity-state.ts';
import { isoTime } from '../platform/clock.ts';
import { newId } from '../platform/ids.ts';
import { stateMoveOps } from '../status/status-index.ts';
import { unchanged } from '../store/conditions.ts';
import { parseItem } from '../store/items.ts';
import type { Condition, Item, Table, WriteOp } from '../store/table.ts';
import { type TransitionRecord, transitionRecordedOp } from './transition-items.ts';

/**
 * The entity item keeps the state of each of its enabled checks (`check_states`), so its aggregate
 * state is computed from one item inside the same transaction as the change that moved it.
 */

const checkStateValue = z.enum(['unknown', 'up', 'down']);

export const entityStateSchema = z.object({
  id: z.string(),
  name: z.string(),
  blueprint_slug: z.string(),
  slug: z.string(),
  state: z.enum(['unknown', 'up', 'down', 'degraded']),
  version: z.number().int(),
  check_count: z.number().int().optional(),
  check_states: z.record(z.string(), checkStateValue).optional(),
  /** The entity transition that set `state` (absent before the first one): the notifier tells a still-current alert by it. */
  last_transition_id: z.string().optional(),
});
export type EntityState = z.infer<typeof entityStateSchema>;

/** Reads an entity's item (consistent), unparsed: for callers that need its state only sometimes. */
export function readEntityItem(
  table: Table,
  tenantId: string,
  blueprintSlug: string,
  slug: string,
): Promise<Item | undefined> {
  return table.get(catalogKeys.entity(tenantId, blueprintSlug, slug), { consistent: true });
}

/** Reads the state part of an entity item (consistent). */
export async function readEntityState(
  table: Table,
  tenantId: string,
  blueprintSlug: string,
  slug: string,
): Promise<EntityState | undefined> {
  const item = await readEntityItem(table, tenantId, blueprintSlug, slug);
  return item ? parseEntityState(item) : undefined;
}

/** The state part of an entity item. */
export function parseEntityState(item: Item): EntityState {
  return parseItem(entityStateSchema, item);
}

export interface EntityChange {
  tenantId: string;
  entity: EntityState;
  /** The enabled checks' states after the change. */
  checkStates: Record<string, CheckState>;
  /** The check that caused the change (carried by the transition and the state-change event). */
  checkId: string;
  reason: string;
  nowMs: number;
  retentionDays: number;
  /** Counter change for check create (+1) and delete (-1). */
  countDelta?: number;
  /** Extra condition on the entity op (e.g. a plan limit). */
  condition?: Condition;
}

/** The entity update (version-checked) and, when the aggregate moved, the entity transition record. */
export function entityStateOps(change: EntityChange): {
  ops: WriteOp[];
  transition: TransitionRecord | undefined;
} {
  const { entity } = change;
  const next: State = aggregateEntityState(
    Object.values(change.checkStates).map((state) => ({ enabled: true, state })),
  );
  const versionHeld = unchanged('version', entity.version);
  const entityKey = catalogKeys.entity(change.tenantId, entity.blueprint_slug, entity.slug);
  const ops: WriteOp[] = [
    {
      type: 'update',
      key: entityKey,
      set: { state: next, check_states: change.checkStates },
      add: { version: 1, ...(change.countDelta ? { check_count: change.countDelta } : {}) },
      condition: change.condition
        ? { kind: 'and', conditions: [versionHeld, change.condition] }
        : { kind: 'and', conditions: [versionHeld, { kind: 'itemExists' }] },
    },
  ];
  if (next === entity.state) return { ops, transition: undefined };
  const transition: TransitionRecord = {
    id: newId('trn', change.nowMs),
    tenant_id: change.tenantId,
    kind: 'entity',
    entity_id: entity.id,
    entity_name: entity.name,
    blueprint_slug: entity.blueprint_slug,
    entity_slug: entity.slug,
    check_id: change.checkId,
    from_state: entity.state,
    to_state: next,
    reason: change.reason,
    created_at: isoTime(change.nowMs),
  };
  const entityOp = ops[0];
  if (entityOp?.type === 'update') entityOp.set = { ...entityOp.set, last_transition_id: transition.id };
  ops.push(transitionRecordedOp(transition, change.retentionDays));
  // The tenant's status counters and state index move with the entity (lib/status/status-index.ts).
  ops.push(...stateMoveOps(change.tenantId, entityKey.sk, entity.id, entity.state, next));
  return { ops, transition };
}
