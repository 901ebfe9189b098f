import * as z from 'zod';
import type { State } from '../../domain/states.ts';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import { migrationMarker } from '../../store/marked-migration.ts';
import type { PageSource } from '../../store/paging.ts';
import type { Condition, Item, Table, WriteOp } from '../../store/table.ts';

/**
 * The items that keep the status board cheap for large fleets (docs/data-model.md, Status): one
 * counter item per tenant (`status_counters`: entities per state) and one index entry per entity in
 * its state's partition (`status_entry`). Both describe entity items and change in the same
 * transaction as the entity item they describe (the catalog's entity writes, the checks engine's
 * state changes), so the counts are exact and the index lists each entity under its current
 * state; pages still check the entity item. They live in partitions of their own, outside the
 * tenant's, so no reader of the tenant's partition meets them. The `migration` marker says every
 * tenant was seeded (lib/status/status-migration.ts).
 */

export const STATES = ['up', 'degraded', 'down', 'unknown'] as const satisfies readonly State[];
export type BoardState = (typeof STATES)[number];

const countersSchema = z.object({
  up: z.number().int().default(0),
  degraded: z.number().int().default(0),
  down: z.number().int().default(0),
  unknown: z.number().int().default(0),
  /** The sum, as the migration's put wrote it (the counter writes do not keep it). */
  total: z.number().int().optional(),
  /** Bumped by every counter write: the migration's put is held on the version it read. */
  version: z.number().int().optional(),
  /** Set by the migration once the tenant was counted. */
  seeded: z.boolean().optional(),
});
export type StatusCounters = z.infer<typeof countersSchema>;

const counters = defineItem({
  type: itemType('status_counters'),
  schema: countersSchema,
  key: (k: { tenant_id: string }) => ({ pk: `STATUS#${k.tenant_id}`, sk: 'COUNTS' }),
  keyOf: null,
  docKey: { tenant_id: '<tnt>' },
});

interface EntryKey {
  tenant_id: string;
  state: BoardState;
  blueprint_slug: string;
  slug: string;
}

/** The sort key of an entry is its entity item's: `ENT#<bp_slug>#<slug>`. */
const entrySkPrefix = (blueprintSlug?: string) => (blueprintSlug ? `ENT#${blueprintSlug}#` : 'ENT#');
const ENTRY_SK = /^ENT#([^#]+)#([^#]+)$/;

const entries = defineItem({
  type: itemType('status_entry'),
  schema: z.object({ entity_id: z.string() }),
  key: (k: EntryKey) => ({ pk: `STATUS#${k.tenant_id}#${k.state}`, sk: `ENT#${k.blueprint_slug}#${k.slug}` }),
  keyOf: null,
  docKey: { tenant_id: '<tnt>', state: '<state>' as BoardState, blueprint_slug: '<bp_slug>', slug: '<slug>' },
});

/** Stored once every tenant's counters were seeded (lib/status/status-migration.ts). */
export const countersMarker = migrationMarker('status-counters', 'tenants_seeded');

/** The entity an index entry or a counter change is about. */
export interface IndexedEntity {
  id: string;
  blueprint_slug: string;
  slug: string;
}

const entryAt = (tenantId: string, state: BoardState, entity: IndexedEntity): EntryKey => ({
  tenant_id: tenantId,
  state,
  blueprint_slug: entity.blueprint_slug,
  slug: entity.slug,
});

function counterOp(tenantId: string, add: Partial<Record<BoardState, number>>): WriteOp {
  return counters.upsert({ tenant_id: tenantId }, { add: { ...add, version: 1 } });
}

function entryPutOp(tenantId: string, state: BoardState, entity: IndexedEntity): WriteOp {
  return entries.putAt(entryAt(tenantId, state, entity), { entity_id: entity.id });
}

// Writes: each goes in the transaction of the entity write it describes.

/** Ops for an entity moving from one state to another (same transaction as the entity update). */
export function stateMoveOps(
  tenantId: string,
  entity: IndexedEntity,
  from: BoardState,
  to: BoardState,
): WriteOp[] {
  if (from === to) return [];
  return [
    counterOp(tenantId, { [from]: -1, [to]: 1 }),
    entries.delete(entryAt(tenantId, from, entity)),
    entryPutOp(tenantId, to, entity),
  ];
}

/** Ops for a new entity in `state` (same transaction as its put). */
export function entityAddedOps(tenantId: string, entity: IndexedEntity, state: BoardState): WriteOp[] {
  return [counterOp(tenantId, { [state]: 1 }), entryPutOp(tenantId, state, entity)];
}

/** Ops for an entity leaving while in `state` (same transaction as its delete, which must hold its version). */
export function entityRemovedOps(tenantId: string, entity: IndexedEntity, state: BoardState): WriteOp[] {
  return [counterOp(tenantId, { [state]: -1 }), entries.delete(entryAt(tenantId, state, entity))];
}

/** The migration's entry of an entity in `state` (with a check that the entity is unchanged). */
export function seededEntryOp(tenantId: string, entity: IndexedEntity, state: BoardState): WriteOp {
  return entryPutOp(tenantId, state, entity);
}

/**
 * The migration's put of a tenant's counts, held on the counter item as read (`read`, undefined
 * when there was none): any entity write meanwhile bumps its version and fails this put.
 */
export function countersSeededOp(
  tenantId: string,
  counts: Record<BoardState | 'total', number>,
  read: StatusCounters | undefined,
): WriteOp {
  const held: Condition = read
    ? { kind: 'compare', attr: 'version', op: '=', value: read.version ?? 0 }
    : { kind: 'itemNotExists' };
  return counters.putAt(
    { tenant_id: tenantId },
    { ...counts, version: (read?.version ?? 0) + 1, seeded: true },
    held,
  );
}

// Reads

/** The tenant's counter item (consistent), or undefined before its first entity write. */
export function readStatusCounters(table: Table, tenantId: string): Promise<StatusCounters | undefined> {
  return counters.get(table, { tenant_id: tenantId }, { consistent: true });
}

/** The paged list of the entities in one state (or one blueprint's), for sealed cursors. */
export function stateIndexSource(tenantId: string, state: BoardState, blueprintSlug?: string): PageSource {
  return { pk: `STATUS#${tenantId}#${state}`, prefix: entrySkPrefix(blueprintSlug) };
}

/** An index entry read: the item (its position in the list) and the entity it names. */
export interface StateEntry {
  at: Item;
  blueprint_slug: string;
  slug: string;
}

/** One read of `stateIndexSource` after the store cursor `cursor`: its entries, ascending (consistent). */
export async function readStateEntryChunk(
  table: Table,
  source: PageSource,
  page: { limit: number; cursor?: string | undefined },
): Promise<{ entries: StateEntry[]; cursor?: string }> {
  const read = await table.query({
    pk: source.pk,
    sk: { op: 'beginsWith', prefix: source.prefix },
    limit: page.limit,
    cursor: page.cursor,
    consistent: true,
  });
  const found = read.items.flatMap((item) => {
    const match = ENTRY_SK.exec(item.sk);
    return match?.[1] && match[2] ? [{ at: item, blueprint_slug: match[1], slug: match[2] }] : [];
  });
  return { entries: found, ...(read.cursor ? { cursor: read.cursor } : {}) };
}
