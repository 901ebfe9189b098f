import * as z from 'zod';
import type { CheckRecord } from '../domain/check-record.ts';
import type { CursorSeal } from '../store/cursor-seal.ts';
import { sharingQueries } from '../store/shared-queries.ts';
import type { Table } from '../store/table.ts';
import { resultsPage } from './results-list.ts';
import { readSparkline } from './sparkline-reads.ts';

/**
 * What a row of the checks list shows besides the check (GET /v1/checks?include=recent): its last
 * RECENT_RESULTS outcomes as a strip and its uptime over the last 24 hours. Both come from the
 * stores the check page reads (results-list.ts, sparkline-reads.ts): the results the same way as
 * GET /v1/checks/{id}/results (one query of the check's newest results, or of its cell's newest
 * slots), the uptime from the 5-minute rollups (at most 288 small items per check, or per cell).
 * The checks of a page are read RECENT_CONCURRENCY at a time, and a cell's reads are made once for
 * all its members on the page (identical queries are shared), so a page's cost is bounded by its
 * size (RECENT_PAGE_MAX checks).
 */

export const RECENT_RESULTS = 30;
/** The largest page that may ask for `include=recent`. */
export const RECENT_PAGE_MAX = 200;
const RECENT_CONCURRENCY = 16;
const DAY_HOURS = 24;

export const recentSchema = z
  .strictObject({
    results: z
      .array(
        z.strictObject({
          outcome: z.enum(['up', 'degraded', 'down']),
          checked_at: z.string(),
        }),
      )
      .meta({ description: `The check's last results (up to ${RECENT_RESULTS}), oldest first` }),
    uptime_24h: z
      .number()
      .min(0)
      .max(1)
      .nullable()
      .meta({ description: 'The share of successful results in the last 24 hours (0 to 1); null with none' }),
    results_24h: z.number().int().meta({ description: 'How many results the last 24 hours hold' }),
  })
  .meta({ id: 'CheckRecent', description: 'With include=recent: the last results and the 24 h uptime' });

export type Recent = z.infer<typeof recentSchema>;

/** The recent results and 24 h uptime of each of `checks`, by check id. */
export async function recentOf(
  deps: { table: Table; cursors: CursorSeal },
  checks: readonly CheckRecord[],
  nowMs: number,
): Promise<Map<string, Recent>> {
  const shared = { table: sharingQueries(deps.table), cursors: deps.cursors };
  const one = async (check: CheckRecord): Promise<[string, Recent]> => {
    const [page, day] = await Promise.all([
      resultsPage(shared, check, { limit: RECENT_RESULTS }, nowMs),
      readSparkline(shared.table, check, { hours: DAY_HOURS, buckets: 1, nowMs }),
    ]);
    const total = day.buckets.reduce((sum, b) => sum + b.total, 0);
    const failures = day.buckets.reduce((sum, b) => sum + b.failures, 0);
    return [
      check.id,
      {
        results: page.results.map((r) => ({ outcome: r.outcome, checked_at: r.checked_at })).reverse(),
        uptime_24h: total === 0 ? null : (total - failures) / total,
        results_24h: total,
      },
    ];
  };
  const found = new Map<string, Recent>();
  for (let i = 0; i < checks.length; i += RECENT_CONCURRENCY) {
    for (const [id, recent] of await Promise.all(checks.slice(i, i + RECENT_CONCURRENCY).map(one))) {
      found.set(id, recent);
    }
  }
  return found;
}
