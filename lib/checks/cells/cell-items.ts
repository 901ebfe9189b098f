import * as z from 'zod';
import { CELL_SIZE } from '../../domain/schedules.ts';
import { unchanged } from '../../store/conditions.ts';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import { queryAll } from '../../store/items.ts';
import type { Table, UpdateOp, WriteOp } from '../../store/table.ts';

/**
 * Owner of the `cell` and `cell_lease` items (issue 26's layout; docs/data-model.md "Checks").
 * A cell is up to CELL_SIZE pull checks of one tenant and one interval that run together: one
 * queue message and one results item per slot serve them all. Cells live in their due shard's
 * partition (`CELLS#<shard>`), where the generator reads them once a minute, next to the shard's
 * lease: the end of the window whose slots the generator has sent, moved on only after it sent
 * them (one write per shard and minute instead of a claim per check). gsi1 lists a tenant's cells
 * of one interval, to find one with room for a new check.
 */

export { CELL_SIZE };

const cellSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  shard: z.number().int().min(0),
  interval_seconds: z.number().int().min(1),
  /** check id -> the version of its definition the cell was last written with. */
  members: z.record(z.string(), z.number().int()),
  version: z.number().int(),
  created_at: z.string(),
});
export type CellRecord = z.infer<typeof cellSchema>;

const cellsPk = (shard: number) => `CELLS#${shard}`;

const cell = defineItem({
  type: itemType('cell'),
  schema: cellSchema,
  key: (k: { shard: number; id: string }) => ({ pk: cellsPk(k.shard), sk: k.id }),
  gsi1: (r) => ({ pk: `CELLS#${r.tenant_id}#${r.interval_seconds}`, sk: r.id }),
  docKey: { shard: '<shard>', id: '<cel_id>' },
});

const lease = defineItem({
  type: itemType('cell_lease'),
  schema: z.object({ sent_through: z.string() }),
  key: (k: { shard: number }) => ({ pk: cellsPk(k.shard), sk: 'LEASE' }),
  keyOf: null,
  docKey: { shard: '<shard>' },
});

/** Written once every tenant's enabled pull checks are in cells: later runs read only this. */
const cellsMarker = defineItem({
  type: itemType('migration'),
  schema: z.object({ checks_moved: z.number().int(), completed_at: z.string() }),
  key: (_: object) => ({ pk: 'MIGRATION', sk: 'cells' }),
  docKey: {},
});

/** Whether the migration of pull checks into cells has completed. */
export async function cellsMigrated(table: Table): Promise<boolean> {
  return (await cellsMarker.get(table, {}, { consistent: true })) !== undefined;
}

/** The put of the cells migration's marker. */
export function cellsMarkerOp(moved: number, completedAt: string): WriteOp {
  return cellsMarker.put({ checks_moved: moved, completed_at: completedAt });
}

/** Every cell of a due shard (strongly consistent), for a generator run. */
export async function cellsOfShard(table: Table, shard: number): Promise<CellRecord[]> {
  const items = await queryAll((cursor) =>
    table.query({ pk: cellsPk(shard), sk: { op: 'beginsWith', prefix: 'cel_' }, cursor, consistent: true }),
  );
  return cell.parseAll(items);
}

/** The tenant's cells of one interval with room for another check (gsi1, eventually consistent). */
export async function cellsWithRoom(
  table: Table,
  tenantId: string,
  intervalSeconds: number,
): Promise<CellRecord[]> {
  const items = await queryAll((cursor) =>
    table.query({ index: 'gsi1', pk: `CELLS#${tenantId}#${intervalSeconds}`, cursor }),
  );
  return cell.parseAll(items).filter((c) => Object.keys(c.members).length < CELL_SIZE);
}

/** A cell, strongly consistent. */
export function getCell(table: Table, shard: number, cellId: string): Promise<CellRecord | undefined> {
  return cell.get(table, { shard, id: cellId }, { consistent: true });
}

/** The put of a new cell (only if absent). */
export function cellCreatedOp(record: CellRecord): WriteOp {
  return cell.put(record, { kind: 'itemNotExists' });
}

/** The members of a cell changed (a check joined, left or changed its definition), held on the version read. */
export function cellMembersOp(record: CellRecord, members: Record<string, number>): UpdateOp {
  return cell.update(
    { shard: record.shard, id: record.id },
    { set: { members }, add: { version: 1 }, condition: unchanged('version', record.version) },
  );
}

/** The end of the window whose slots the shard's generator has sent (ISO), or undefined before the first run. */
export async function readLease(table: Table, shard: number): Promise<string | undefined> {
  return (await lease.get(table, { shard }, { consistent: true }))?.sent_through;
}

/**
 * Moves the shard's lease to `to` while it still says `from` (undefined: no lease yet): of two
 * generator runs for one window, one moves it; the other's messages are harmless duplicates.
 */
export function leaseAdvancedOp(shard: number, from: string | undefined, to: string): UpdateOp {
  return lease.upsert({ shard }, { set: { sent_through: to }, condition: unchanged('sent_through', from) });
}
