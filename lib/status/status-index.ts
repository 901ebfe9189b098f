import type { State } from '../domain/check-state.ts';
import { itemType, stamp } from '../store/item-type.ts';
import type { Key, NewItem, WriteOp } from '../store/table.ts';

/**
 * The items that keep the status board cheap for large fleets (docs/data-model.md): one counter
 * item per tenant (entities per state) and one index item per entity in its state's partition.
 * Both change in the same transaction as the entity item they describe, so the counts are exact
 * and the index lists each entity under its current state; pages still check the entity item.
 * They live in partitions of their own, outside the tenant's, so no reader of the tenant's
 * partition meets them.
 */

export const STATES = ['up', 'degraded', 'down', 'unknown'] as const satisfies readonly State[];
export type BoardState = (typeof STATES)[number];

export const statusKeys = {
  /** The tenant's counters: `up`, `degraded`, `down`, `unknown` and a `version` bumped on each change. */
  counters: (tenantId: string): Key => ({ pk: `STATUS#${tenantId}`, sk: 'COUNTS' }),
  /** Partition listing the tenant's entities in one state; sk is the entity item's sk. */
  statePk: (tenantId: string, state: BoardState) => `STATUS#${tenantId}#${state}`,
  stateEntry: (tenantId: string, state: BoardState, entitySk: string): Key => ({
    pk: statusKeys.statePk(tenantId, state),
    sk: entitySk,
  }),
};

/** The status item types: each item's `entity` and the version of its stored shape. */
export const statusTypes = {
  counters: itemType('status_counters'),
  stateEntry: itemType('status_entry'),
  /** The marker written once every tenant's counters and index were seeded. */
  migration: itemType('migration'),
};

/** Written once every tenant has its counters and index: from then on counters are always used. */
export const STATUS_COUNTERS_MIGRATED = { pk: 'MIGRATION', sk: 'status-counters' };

/** The index item listing `entitySk` under `state`. */
export function stateEntryItem(
  tenantId: string,
  state: BoardState,
  entitySk: string,
  entityId: string,
): NewItem {
  return {
    ...statusKeys.stateEntry(tenantId, state, entitySk),
    ...stamp(statusTypes.stateEntry),
    entity_id: entityId,
  };
}

function counterOp(tenantId: string, add: Record<string, number>): WriteOp {
  return {
    type: 'update',
    key: statusKeys.counters(tenantId),
    set: { ...stamp(statusTypes.counters) },
    add: { ...add, version: 1 },
  };
}

/** Ops for an entity moving from one state to another (same transaction as the entity update). */
export function stateMoveOps(
  tenantId: string,
  entitySk: string,
  entityId: string,
  from: BoardState,
  to: BoardState,
): WriteOp[] {
  if (from === to) return [];
  return [
    counterOp(tenantId, { [from]: -1, [to]: 1 }),
    { type: 'delete', key: statusKeys.stateEntry(tenantId, from, entitySk) },
    { type: 'put', item: stateEntryItem(tenantId, to, entitySk, entityId) },
  ];
}

/** Ops for a new entity in `state` (same transaction as its put). */
export function entityAddedOps(
  tenantId: string,
  entitySk: string,
  entityId: string,
  state: BoardState,
): WriteOp[] {
  return [
    counterOp(tenantId, { [state]: 1 }),
    { type: 'put', item: stateEntryItem(tenantId, state, entitySk, entityId) },
  ];
}

/** Ops for an entity leaving while in `state` (same transaction as its delete, which must hold its version). */
export function entityRemovedOps(tenantId: string, entitySk: string, state: BoardState): WriteOp[] {
  return [
    counterOp(tenantId, { [state]: -1 }),
    { type: 'delete', key: statusKeys.stateEntry(tenantId, state, entitySk) },
  ];
}
