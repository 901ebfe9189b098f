import { type CheckStateRecord, checkStateSchema } from '../../check-types/check-record.ts';
import { DUE_SUB_KEYS, dueSubKeyOf } from '../../domain/schedules.ts';
import { unchanged } from '../../store/conditions.ts';
import { defineItem, type IndexKey } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import { batchGetAll, transactIf } from '../../store/items.ts';
import { checkPartition, tenantPk } from '../../store/partitions.ts';
import type { Item, Key, QueryPage, Table, UpdateOp, WriteOp } from '../../store/table.ts';

/**
 * Owner of a check's running state item (`check_state`, `STATE` in the check's own partition
 * `CHECK#<chk_id>`; docs/data-model.md "Checks"): written by claims, results and every API write
 * of the check, and the due index (gsi2) the generator reads. In its check's partition, not its
 * tenant's, so a tenant's jobs pinging at once write as many partition keys as there are jobs
 * (issue 78 point 5); the definition stays in the tenant's partition, and reads of several checks
 * get their states by key. The key holds no tenant: every read checks the item's `tenant_id`.
 */

const stateItem = defineItem({
  type: itemType('check_state'),
  schema: checkStateSchema,
  key: (k: { tenant_id: string; check_id: string }) => ({ pk: checkPartition(k.check_id), sk: 'STATE' }),
  // The due index's shard comes from the deployment's shard count: a put is given its entry.
  gsi2: (_record, context: { due: IndexKey | null }) => context.due,
  docKey: { tenant_id: '<tnt>', check_id: '<chk_id>' },
});

/**
 * The due index (gsi2) partition of a shard's sub-key (`DUE#<shard>#<nn>`, the check's dueSubKeyOf:
 * write sharding, so a burst of pings moving their entries spreads over the sub-keys); sort key is
 * the due time then the check id. Before issue 78 point 5 a shard was one partition, `DUE#<shard>`:
 * its entries are still read (duePartitions), and each moves to its sub-key when next written.
 */
const duePk = (shard: number, subKey: number) => `DUE#${shard}#${String(subKey).padStart(2, '0')}`;
const legacyDuePk = (shard: number) => `DUE#${shard}`;

/** Every due-index partition of a shard: its sub-keys, then the key of earlier releases. */
export function duePartitions(shard: number): string[] {
  return [...Array.from({ length: DUE_SUB_KEYS }, (_, k) => duePk(shard, k)), legacyDuePk(shard)];
}

/** One page of one due-index partition (a `duePartitions` key): its entries due before `before` (an ISO time), in order. */
export function dueEntriesPage(
  table: Table,
  input: { pk: string; before: string; limit: number; cursor: string | undefined },
): Promise<QueryPage> {
  return table.query({
    index: 'gsi2',
    pk: input.pk,
    sk: { op: '<', value: input.before },
    limit: input.limit,
    cursor: input.cursor,
  });
}

/** A state item's due-index entry at `nextRunAt` (null: out of the index, not scheduled). */
function dueEntry(checkId: string, nextRunAt: string | null, shard: number): IndexKey | null {
  return nextRunAt ? { pk: duePk(shard, dueSubKeyOf(checkId)), sk: `${nextRunAt}#${checkId}` } : null;
}

/** Where a state item is scheduled: its next run and the due-index shard. */
export interface DueAt {
  nextRunAt: string | null;
  shard: number;
}

/** The put of a new check's state item (only if absent), in the due index at its first run. */
export function stateCreatedOp(state: CheckStateRecord, shard: number): WriteOp {
  return stateItem.put(
    state,
    { kind: 'itemNotExists' },
    { due: dueEntry(state.check_id, state.next_run_at, shard) },
  );
}

/**
 * An API write's change of the state item: the copies of the definition, the schedule when it
 * changed (`due`), and a new version, so a result in flight, evaluated against the old
 * definition, is refused and evaluated again.
 */
export function stateOfDefinitionOp(input: {
  tenantId: string;
  checkId: string;
  copies: Pick<CheckStateRecord, 'execution_mode' | 'interval_seconds' | 'definition_version'>;
  due?: DueAt | undefined;
  /** A check leaving its cell: the running state the cell kept, which the state item keeps from now on. */
  running?: Pick<CheckStateRecord, 'state' | 'consecutive_failures' | 'last_result_at'> | undefined;
}): UpdateOp {
  const { due } = input;
  return stateItem.update(
    { tenant_id: input.tenantId, check_id: input.checkId },
    {
      set: { ...input.copies, ...input.running, ...(due ? { next_run_at: due.nextRunAt } : {}) },
      ...(due ? { index: { gsi2: dueEntry(input.checkId, due.nextRunAt, due.shard) } } : {}),
      add: { version: 1 },
      condition: { kind: 'itemExists' },
    },
  );
}

/** The delete of a check's state item. */
export function stateDeletedOp(tenantId: string, checkId: string): WriteOp {
  return stateItem.delete({ tenant_id: tenantId, check_id: checkId });
}

/**
 * The claim of a due check's slot: moves its next run (and due-index entry) on, holding only while
 * nobody else claimed it (`next_run_at` unchanged; a disabled check has none, a deleted one no item).
 */
export function claimOp(input: {
  tenantId: string;
  checkId: string;
  claimedRunAt: string;
  due: DueAt;
}): UpdateOp {
  return stateItem.update(
    { tenant_id: input.tenantId, check_id: input.checkId },
    {
      set: { next_run_at: input.due.nextRunAt },
      index: { gsi2: dueEntry(input.checkId, input.due.nextRunAt, input.due.shard) },
      condition: unchanged('next_run_at', input.claimedRunAt),
    },
  );
}

/** A result's write of the state item: the new running state, held on the version it was computed from. */
export function stateRecordedOp(input: {
  tenantId: string;
  checkId: string;
  set: Partial<CheckStateRecord>;
  version: number;
  due?: DueAt | undefined;
}): UpdateOp {
  const { due } = input;
  return stateItem.update(
    { tenant_id: input.tenantId, check_id: input.checkId },
    {
      set: { ...input.set, ...(due ? { next_run_at: due.nextRunAt } : {}) },
      ...(due ? { index: { gsi2: dueEntry(input.checkId, due.nextRunAt, due.shard) } } : {}),
      add: { version: 1 },
      condition: unchanged('version', input.version),
    },
  );
}

/**
 * The breakdown of the check's last decided slot rewritten with a late location's part, while
 * that slot is still its last result (`last_result_at`); nothing else of the state moves.
 */
export function lastLocationsOp(input: {
  tenantId: string;
  checkId: string;
  slotAt: string;
  locations: CheckStateRecord['last_locations'];
}): UpdateOp {
  return stateItem.update(
    { tenant_id: input.tenantId, check_id: input.checkId },
    { set: { last_locations: input.locations }, condition: unchanged('last_result_at', input.slotAt) },
  );
}

/** The check's state item, strongly consistent (another tenant's check has none). */
export async function readCheckState(
  table: Table,
  tenantId: string,
  checkId: string,
): Promise<CheckStateRecord | undefined> {
  const key = { tenant_id: tenantId, check_id: checkId };
  let state = await stateItem.get(table, key, { consistent: true });
  if (!state && (await movedOnRead(table, tenantId, checkId))) {
    state = await stateItem.get(table, key, { consistent: true });
  }
  return state?.tenant_id === tenantId ? state : undefined;
}

/**
 * A state an earlier release kept in its tenant's partition, moved when read (as the migration moves
 * it, stateMovedOps): between a deploy and its `data migrate`, a check stored before is read, pinged
 * and claimed as before instead of reading as absent. Answers whether there was one to move (moved
 * now, or by someone else meanwhile: the caller reads the check's partition again).
 */
async function movedOnRead(table: Table, tenantId: string, checkId: string): Promise<boolean> {
  const old = await table.get(tenantStateKey(tenantId, checkId), { consistent: true });
  if (!old || !stateItem.is(old) || old.tenant_id !== tenantId) return false;
  await transactIf(table, stateMovedOps(old, false));
  return true;
}

/**
 * The state items of the given checks of a tenant (missing ones, and another tenant's, are
 * absent). A batch read is eventually consistent: with `consistent`, a check whose state it did not
 * find (one created a moment ago) is read again on its own, strongly consistent.
 */
export async function statesById(
  table: Table,
  tenantId: string,
  checkIds: readonly string[],
  options: {
    consistent?: boolean;
    /** Move a missing state an earlier release kept in the tenant's partition (movedOnRead); with `consistent`. */
    movePrevious?: boolean;
  } = {},
): Promise<Item[]> {
  const ids = [...new Set(checkIds)];
  const keyOf = (id: string) => stateItem.key({ tenant_id: tenantId, check_id: id });
  const found = (await batchGetAll(table, ids.map(keyOf))).filter((item) => item.tenant_id === tenantId);
  if (!options.consistent || found.length === ids.length) return found;
  const seen = new Set(found.map((item) => item.check_id));
  for (const id of ids.filter((id) => !seen.has(id))) {
    let item = await table.get(keyOf(id), { consistent: true });
    if (!item && options.movePrevious && (await movedOnRead(table, tenantId, id))) {
      item = await table.get(keyOf(id), { consistent: true });
    }
    if (item?.tenant_id === tenantId) found.push(item);
  }
  return found;
}

/** The states among `items`. */
export function parseStates(items: readonly Item[]): CheckStateRecord[] {
  return stateItem.parseAll(items);
}

/** Whether `item` is a check's state item. */
export function isState(item: Item): boolean {
  return stateItem.is(item);
}

/** A migrated check's new state item (only if absent), keeping the due-index entry its earlier item had. */
export function stateMigratedOp(state: CheckStateRecord, due: IndexKey | null): WriteOp {
  return stateItem.put(state, { kind: 'itemNotExists' }, { due });
}

/** Where the state item was before issue 78 point 5: next to its definition in the tenant's partition. */
const tenantStateKey = (tenantId: string, checkId: string): Key => ({
  pk: tenantPk(tenantId),
  sk: `CHECK#${checkId}#STATE`,
});

/** The due-index entry an item carries (none: not scheduled). */
function dueEntryOf(item: Item): IndexKey | null {
  return typeof item.gsi2pk === 'string' && typeof item.gsi2sk === 'string'
    ? { pk: item.gsi2pk, sk: item.gsi2sk }
    : null;
}

/** Whether `item` is a state item still in its tenant's partition (to move: stateMovedOps). */
export function isTenantPartitionState(item: Item): boolean {
  return stateItem.is(item) && item.pk.startsWith('TENANT#');
}

/**
 * The move of a state item read in its tenant's partition to its check's partition, for one
 * transaction: the copy with its due-index entry (only if absent), and the delete of the item read,
 * held on what moves (its version and its next run: a write or a claim since it was read fails the
 * move, which is read again). With `copied` (the check's partition has its state already: an
 * earlier move), only the delete, so a move run twice leaves one state item and one due entry.
 */
export function stateMovedOps(item: Item, copied: boolean): WriteOp[] {
  const state = stateItem.parse(item);
  // An unscheduled state (next_run_at null) cannot be claimed: its version holds it alone.
  const claimable = state.next_run_at ? [unchanged('next_run_at', state.next_run_at)] : [];
  const held: WriteOp = {
    type: 'delete',
    key: tenantStateKey(state.tenant_id, state.check_id),
    condition: { kind: 'and', conditions: [unchanged('version', state.version), ...claimable] },
  };
  return copied ? [held] : [stateMigratedOp(state, dueEntryOf(item)), held];
}
