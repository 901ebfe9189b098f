import * as z from 'zod';
import { unchanged } from '../../store/conditions.ts';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import { queryAll } from '../../store/items.ts';
import type { PageSource } from '../../store/paging.ts';
import { cellPartition } from '../../store/partitions.ts';
import { type Item, MAX_QUERY_LIMIT, type Table, type WriteOp } from '../../store/table.ts';

/**
 * Owner of what a cell's slots leave behind (issue 26's layout), in the cell's partition
 * `CELLRES#<cel_id>`: one `cell_results` item per slot (every member's result, compact, expiring
 * with the tenant's retention), written with one conditional put, so a redelivered job finds it;
 * and the `cell_state` item (each member's state and failure count, with the slot each was last
 * moved by), written only when a slot moves some member, in the transaction that records that
 * slot's transitions. A healthy slot is one put for up to 100 checks.
 */

const checkStates = z.enum(['unknown', 'up', 'down', 'degraded']);

/** One member's result in a slot: short names, since each is stored once per check and minute. */
const cellResultEntrySchema = z.object({
  /** The check id. */
  c: z.string(),
  ok: z.boolean(),
  /** A degraded success (`e` says why); absent otherwise. */
  g: z.boolean().optional(),
  /** status_code */
  s: z.number().int(),
  /** latency_ms */
  l: z.number().int().min(0),
  /** When the probe started, in ms after the slot. */
  o: z.number().int(),
  /** error_message, when not empty. */
  e: z.string().optional(),
  /** The probe's details, when it gave any. */
  d: z.record(z.string(), z.unknown()).optional(),
  /** A manual run's result (POST /v1/checks/{id}/run); absent otherwise. */
  m: z.boolean().optional(),
});
export type CellResultEntry = z.infer<typeof cellResultEntrySchema>;

const cellResultsSchema = z.object({
  cell_id: z.string(),
  tenant_id: z.string(),
  /** The slot (ISO time). */
  slot: z.string(),
  results: z.array(cellResultEntrySchema),
});
export type CellResultsRecord = z.infer<typeof cellResultsSchema>;

/**
 * The members' running states. A member that is up with no failures is left out (most of a
 * healthy cell), so the item stays small and a state change writes little; a check joining the
 * cell enters it as unknown.
 */
const cellStateSchema = z.object({
  cell_id: z.string(),
  tenant_id: z.string(),
  /** The newest slot that moved a member (ISO): an older slot, delivered late, moves none. */
  last_slot: z.string(),
  members: z.record(
    z.string(),
    z.object({
      state: checkStates,
      consecutive_failures: z.number().int().min(0),
      /** Successes in a row while down or degraded (success_threshold); absent before issue 35: 0. */
      consecutive_successes: z.number().int().min(0).optional(),
      /** The slot whose result last moved this member (ISO): a slot is applied to a member once. */
      slot: z.string(),
    }),
  ),
  version: z.number().int(),
});
export type CellStateRecord = z.infer<typeof cellStateSchema>;

const partition = cellPartition;
const RESULTS_PREFIX = 'RES#';

const results = defineItem({
  type: itemType('cell_results'),
  schema: cellResultsSchema,
  key: (k: { cell_id: string; slot: string }) => ({
    pk: partition(k.cell_id),
    sk: `${RESULTS_PREFIX}${k.slot}`,
  }),
  ttl: (r, c: { retentionDays: number }) => Math.floor(Date.parse(r.slot) / 1000) + c.retentionDays * 86_400,
  docKey: { cell_id: '<cel_id>', slot: '<slot>' },
});

const state = defineItem({
  type: itemType('cell_state'),
  schema: cellStateSchema,
  key: (k: { cell_id: string }) => ({ pk: partition(k.cell_id), sk: 'STATE' }),
  docKey: { cell_id: '<cel_id>' },
});

/** The put of a slot's results, only if that slot has none yet (a redelivered job collides). */
export function cellResultsOp(record: CellResultsRecord, retentionDays: number): WriteOp {
  return results.put(record, { kind: 'itemNotExists' }, { retentionDays });
}

/** A slot's results, strongly consistent (a redelivered job reads what its first delivery wrote). */
export function getCellResults(
  table: Table,
  cellId: string,
  slot: string,
): Promise<CellResultsRecord | undefined> {
  return results.get(table, { cell_id: cellId, slot }, { consistent: true });
}

/** The cell's latest slots' results, newest first, and the cursor of the next page. */
export async function cellResultsPage(
  table: Table,
  cellId: string,
  page: { limit: number; cursor?: string | undefined; before?: string | undefined },
): Promise<{ slots: CellResultsRecord[]; cursor: string | undefined }> {
  const read = await table.query({
    pk: partition(cellId),
    sk: page.before
      ? { op: 'between', low: RESULTS_PREFIX, high: `${RESULTS_PREFIX}${page.before}` }
      : { op: 'beginsWith', prefix: RESULTS_PREFIX },
    direction: 'desc',
    limit: page.limit,
    cursor: page.cursor,
  });
  return { slots: results.parseAll(read.items), cursor: read.cursor };
}

/** The cell's state, strongly consistent (undefined before any slot moved a member). */
export function getCellState(table: Table, cellId: string): Promise<CellStateRecord | undefined> {
  return state.get(table, { cell_id: cellId }, { consistent: true });
}

/** The cell's state after a slot, held on the version it was computed from (undefined: none yet). */
export function cellStateOp(record: CellStateRecord, readVersion: number | undefined): WriteOp {
  return state.put(
    record,
    readVersion === undefined ? { kind: 'itemNotExists' } : unchanged('version', readVersion),
  );
}

/** The paged list of a cell's slots, newest first (for sealed cursors). */
export function cellResultsSource(cellId: string): PageSource {
  return { pk: partition(cellId), prefix: RESULTS_PREFIX };
}

/** A slot's results read through a page of `cellResultsSource`. */
export function parseCellResults(item: Item): CellResultsRecord {
  return results.parse(item);
}

/** Whether a stored slot holds a result of `checkId` (a page filter: it reads the item's entries). */
export function holdsResultOf(item: Item, checkId: string): boolean {
  return (
    Array.isArray(item.results) && item.results.some((entry) => (entry as { c?: unknown }).c === checkId)
  );
}

/**
 * The cell's slots from `from` to `to` (ISO times, inclusive), oldest first: at most `max` + 1 of
 * them, so a caller bounding its read sees that more were there.
 */
export async function cellResultsBetween(
  table: Table,
  cellId: string,
  range: { from: string; to: string; max: number; consistent?: boolean },
): Promise<CellResultsRecord[]> {
  const wanted = range.max + 1;
  let read = 0;
  const items = await queryAll(async (cursor) => {
    // Each page asks for what is still wanted: the slots are large (every member's result).
    const page = await table.query({
      pk: partition(cellId),
      sk: { op: 'between', low: `${RESULTS_PREFIX}${range.from}`, high: `${RESULTS_PREFIX}${range.to}` },
      limit: Math.min(wanted - read, MAX_QUERY_LIMIT),
      cursor,
      ...(range.consistent ? { consistent: true } : {}),
    });
    read += page.items.length;
    return page;
  }, wanted);
  return results.parseAll(items.slice(0, wanted));
}
