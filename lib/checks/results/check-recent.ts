import * as z from 'zod';
import type { CheckRecord } from '../../check-types/check-record.ts';
import type { CursorSeal } from '../../store/cursor-seal.ts';
import { sharingQueries } from '../../store/shared-queries.ts';
import type { Table } from '../../store/table.ts';
import { resultsPage } from './results-list.ts';
import { readSparkline, type SparklineCheck } from './sparkline-reads.ts';

/**
 * What a row of the checks list shows besides the check (GET /v1/checks?include=recent): its last
 * RECENT_RESULTS outcomes as a strip and its uptime over the last 24 hours. Both come from the
 * stores the check page reads (results-list.ts, sparkline-reads.ts): the results the same way as
 * GET /v1/checks/{id}/results (one query of the check's newest results, or of its cell's newest
 * slots), the uptime from the 5-minute rollups (at most 288 small items per check, or per cell).
 * The checks of a page are read RECENT_CONCURRENCY at a time (results and uptime alongside), and a cell's reads are made once for
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

/** What one check's last 24 hours hold: its results and how many of them failed. */
export interface DayCounts {
  total: number;
  failures: number;
}

/** `fn` of each of `items`, `RECENT_CONCURRENCY` at a time, in order. */
async function inBatches<T, R>(items: readonly T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += RECENT_CONCURRENCY) {
    out.push(...(await Promise.all(items.slice(i, i + RECENT_CONCURRENCY).map(fn))));
  }
  return out;
}

/**
 * The counts of the last 24 hours of each of `checks`, by check id: from the 5-minute rollups (at
 * most 288 small items per check, or per cell), RECENT_CONCURRENCY checks at a time. Give it a
 * sharingQueries table (lib/store/shared-queries.ts) so a cell's rollups are read once for all its
 * members. The one way the checks list and the status board count their 24 h uptime.
 */
export async function dayCountsOf(
  table: Table,
  checks: readonly SparklineCheck[],
  nowMs: number,
): Promise<Map<string, DayCounts>> {
  const counted = await inBatches(checks, async (check) => {
    const day = await readSparkline(table, check, { hours: DAY_HOURS, buckets: 1, nowMs });
    const total = day.buckets.reduce((sum, b) => sum + b.total, 0);
    const failures = day.buckets.reduce((sum, b) => sum + b.failures, 0);
    return [check.id, { total, failures }] as const;
  });
  return new Map(counted);
}

/** The 24 h uptime of `counts` together: their successes over their results, null without any. */
export function dayUptimeOf(
  counts: Iterable<DayCounts | undefined>,
): Pick<Recent, 'uptime_24h' | 'results_24h'> {
  let total = 0;
  let failures = 0;
  for (const c of counts) {
    total += c?.total ?? 0;
    failures += c?.failures ?? 0;
  }
  return { uptime_24h: total === 0 ? null : (total - failures) / total, results_24h: total };
}

/** The recent results and 24 h uptime of each of `checks`, by check id. */
export async function recentOf(
  deps: { table: Table; cursors: CursorSeal },
  checks: readonly CheckRecord[],
  nowMs: number,
): Promise<Map<string, Recent>> {
  const shared = { table: sharingQueries(deps.table), cursors: deps.cursors };
  const [pages, days] = await Promise.all([
    inBatches(checks, (check) => resultsPage(shared, check, { limit: RECENT_RESULTS }, nowMs)),
    dayCountsOf(shared.table, checks, nowMs),
  ]);
  return new Map(
    checks.map((check, i) => [
      check.id,
      {
        // An inconclusive slot is neither up nor down: the strip leaves it out.
        results: (pages[i]?.results ?? [])
          .flatMap((r) =>
            r.outcome === 'inconclusive' ? [] : [{ outcome: r.outcome, checked_at: r.checked_at }],
          )
          .reverse(),
        ...dayUptimeOf([days.get(check.id)]),
      },
    ]),
  );
}
