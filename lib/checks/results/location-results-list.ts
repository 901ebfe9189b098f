import { MAX_CHECK_LOCATIONS } from '../../domain/states.ts';
import { isoTime } from '../../platform/clock.ts';
import { deterministicId } from '../../platform/ids.ts';
import {
  openPageCursor,
  type PageDeps,
  type PageRequest,
  readNewestFirst,
  sealPageCursor,
  unexpired,
} from '../../store/paging.ts';
import {
  type LocationResultRecord,
  locationResultsSource,
  parseLocationResult,
} from '../items/location-result-items.ts';
import { resultOutcome } from '../records.ts';

/**
 * GET /v1/checks/{id}/results?location=<name>: one location's own rows of a located check (what it
 * reported for each slot: its latency, status and error), newest slot first. The rows of all the
 * check's locations share one partition keyed by slot then location, so a page reads at most
 * `limit` rows per location the check names (at most MAX_CHECK_LOCATIONS) and keeps that
 * location's: a page may hold fewer than `limit` rows (a slot the location missed, a location the
 * check no longer names) while `next_cursor` says more may follow.
 */

/**
 * The id of a slot's decided result: the recorder's deterministic id of the slot (result-recorder.ts),
 * so a location's row names the result it counted toward (test/checks/check-locations.test.ts).
 */
const slotResultId = (checkId: string, slotMs: number) =>
  deterministicId('res', slotMs, `${checkId}:${slotMs}:p`);

/** A location's row as the API shows it: a result's shape, with its location and slot. */
function publicLocationResult(row: LocationResultRecord) {
  return {
    id: slotResultId(row.check_id, row.slot_ms),
    check_id: row.check_id,
    location: row.location,
    slot_at: isoTime(row.slot_ms),
    status_code: row.status_code,
    latency_ms: row.latency_ms,
    success: row.success,
    ...(row.success && row.degraded ? { degraded: true as const } : {}),
    outcome: resultOutcome(row),
    error_message: row.error_message,
    checked_at: row.checked_at,
    ...(row.details ? { details: row.details } : {}),
  };
}

/** A page of one location's rows of the check, and the cursor of the next page. */
export async function locationResultsPage(
  deps: PageDeps,
  check: { id: string; locations?: readonly string[] | undefined },
  location: string,
  page: PageRequest,
  nowMs: number,
) {
  const list = locationResultsSource(check.id);
  // A cursor pages one location's rows.
  const source = { ...list.source, scope: `location ${location}` };
  const { query } = list;
  const budget = page.limit * Math.min(MAX_CHECK_LOCATIONS, Math.max(1, check.locations?.length ?? 1));
  const cursor =
    page.cursor === undefined ? undefined : await openPageCursor(deps.cursors, page.cursor, source);
  // One row past the budget says whether more follow.
  const rows = await readNewestFirst(deps.table, query, { want: budget + 1, keep: () => true, cursor });
  const scanned = rows.slice(0, budget);
  const live = unexpired(nowMs);
  const matching = scanned.filter((item) => item.location === location && live(item));
  const items = matching.slice(0, page.limit);
  // The page ends at its last row when it is full, else at the last row read.
  const last =
    matching.length > page.limit ? items.at(-1) : rows.length > budget ? scanned.at(-1) : undefined;
  return {
    results: items.map((item) => publicLocationResult(parseLocationResult(item))),
    next_cursor: last ? await sealPageCursor(deps.cursors, last, source) : null,
  };
}
