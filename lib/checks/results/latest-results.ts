import type { CheckDefinitionRecord } from '../../check-types/check-record.ts';
import type { Table } from '../../store/table.ts';
import { cellResultsPage } from '../cells/cell-result-items.ts';
import { entryResult } from '../cells/cell-view.ts';
import { latestResults, type ResultRecord } from '../items/result-items.ts';

/**
 * The newest results of checks, whoever holds them: a pull check's are in its cell's slots (one
 * item per slot, every member in it, so a cell is read once for all its checks asked about), a
 * push check's (and a former pull check's) in its own result items. Callers ask by check; that
 * cells exist stays here.
 */

/** A result with the time it is counted at: the start of the slot it was probed in, else its own time. */
export interface LatestResult extends ResultRecord {
  slot_at: string;
}

export interface LatestQuery {
  /** Newest results read per check (a cell's newest `limit` slots: a member missing from one has fewer). */
  limit: number;
  /** Only the checks being probed now (enabled pull checks): their results are one read per cell, no read per check. */
  probedOnly?: boolean;
}

/** check id -> its newest results, newest first (a check without any is absent). */
export async function latestResultsOf(
  table: Table,
  checks: readonly CheckDefinitionRecord[],
  query: LatestQuery,
): Promise<Map<string, LatestResult[]>> {
  const wanted = new Set(checks.map((c) => c.id));
  const cellIds = [...new Set(checks.flatMap((c) => (c.cell ? [c.cell.cell_id] : [])))];
  const ownIds = query.probedOnly ? [] : checks.filter((c) => !c.cell).map((c) => c.id);
  const [cells, owns] = await Promise.all([
    Promise.all(cellIds.map((id) => cellResultsPage(table, id, { limit: query.limit }))),
    Promise.all(ownIds.map((id) => latestResults(table, id, query.limit))),
  ]);
  const out = new Map<string, LatestResult[]>();
  const add = (result: LatestResult) => {
    const list = out.get(result.check_id) ?? [];
    list.push(result);
    out.set(result.check_id, list);
  };
  // Pages come newest slot first, so each check's list is newest first.
  for (const page of cells)
    for (const slot of page.slots)
      for (const entry of slot.results)
        if (wanted.has(entry.c)) add({ ...entryResult(slot, entry), slot_at: slot.slot });
  // An inconclusive slot (a located check's, too few locations reported) is neither up nor down:
  // the strips, metrics and last errors built on these leave it out. Cells hold none.
  for (const results of owns)
    for (const r of results) if (!r.inconclusive) add({ ...r, slot_at: r.checked_at });
  return out;
}

/** Results scanned for the last error: a recovery's newest result is a success, the error just before it. */
const ERROR_RESULTS_SCANNED = 20;
/** A cell's slots scanned for the last error (each holds one result of each member). */
const ERROR_SLOTS_SCANNED = 5;

/**
 * The words of the check's latest failed or degraded result among its most recent ones (a failing
 * assertion, a slow answer, a certificate near expiry), or null. Without its definition (the check
 * was removed) its own result items are read.
 */
export async function lastErrorOf(
  table: Table,
  checkId: string,
  definition: CheckDefinitionRecord | undefined,
): Promise<string | null> {
  const results = definition?.cell
    ? ((await latestResultsOf(table, [definition], { limit: ERROR_SLOTS_SCANNED })).get(checkId) ?? [])
    : await latestResults(table, checkId, ERROR_RESULTS_SCANNED);
  for (const result of results) {
    if (result.inconclusive) continue;
    if ((!result.success || result.degraded) && result.error_message) return result.error_message;
  }
  return null;
}
