import { checkNameOf } from '../../check-types/check-name.ts';
import type { BuiltinTool } from '../../platform/mcp-tool.ts';
import { optionalString, positiveInt, READS, requiredString } from '../../platform/mcp-tool.ts';
import {
  asToolResult,
  decodeListCursor,
  encodeListCursor,
  entityWords,
  readLists,
  toolResult,
} from '../../platform/tool-answers.ts';
import type { CheckToolDeps } from './deps.ts';
import { checkResultsInput } from './schemas.ts';

/**
 * get_check_results: a page of one check's per-attempt results over the last `hours` (newest
 * first, at most `limit` and ANSWER_ITEM_BYTES of them: an answer stays under 50 KB however often
 * the check runs; `next_cursor` continues), and on the first page a summary of the whole window:
 * results by outcome, latency p50/p95, the oldest and newest result's time. The summary reads the
 * window's results (at most `summaryMax` of them, the newest; `summary.complete` says whether that
 * was all); later pages leave it out (`summary: null`), so paging costs only the pages.
 */

const RESULT_LIMITS = {
  maxHours: 24 * 7,
  defaultLimit: 50,
  maxLimit: 500,
  summaryMax: 10_000,
} as const;

type Result = Awaited<ReturnType<CheckToolDeps['checkReads']['results']>>['results'][number];

interface WindowSummary {
  results: number;
  up: number;
  degraded: number;
  down: number;
  /** A located check's slots too few locations reported to decide: neither up nor down. */
  inconclusive: number;
  latency_p50_ms: number | null;
  latency_p95_ms: number | null;
  first_at: string | null;
  last_at: string | null;
  /** false: the window held more than RESULT_LIMITS.summaryMax results; these are the newest. */
  complete: boolean;
}

/** The nearest-rank percentile `p` (0..100) of sorted values. */
function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] ?? null;
}

/** The summary of results (newest first). */
function summarise(results: readonly Result[], complete: boolean): WindowSummary {
  // An inconclusive slot's latency is of the few locations that reported: not the check's.
  const latencies = results
    .filter((r) => r.outcome !== 'inconclusive')
    .map((r) => r.latency_ms)
    .sort((a, b) => a - b);
  const count = (outcome: string) => results.filter((r) => r.outcome === outcome).length;
  return {
    results: results.length,
    up: count('up'),
    degraded: count('degraded'),
    down: count('down'),
    inconclusive: count('inconclusive'),
    latency_p50_ms: percentile(latencies, 50),
    latency_p95_ms: percentile(latencies, 95),
    first_at: results.at(-1)?.checked_at ?? null,
    last_at: results[0]?.checked_at ?? null,
    complete,
  };
}

/** The window's results, newest first, at most RESULT_LIMITS.summaryMax (and whether that was all). */
async function windowResults(deps: CheckToolDeps, tenantId: string, checkId: string, sinceMs: number) {
  const results: Result[] = [];
  let cursor: string | undefined;
  do {
    const page = await deps.checkReads.results(tenantId, checkId, {
      limit: 1000,
      ...(cursor ? { cursor } : {}),
    });
    for (const r of page.results) {
      if (Date.parse(r.checked_at) < sinceMs) return { results, complete: true };
      if (results.length === RESULT_LIMITS.summaryMax) return { results, complete: false };
      results.push(r);
    }
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return { results, complete: true };
}

/** The summary in words. */
function summaryWords(s: WindowSummary): string {
  if (s.results === 0) return 'no results';
  const latency = `latency p50 ${s.latency_p50_ms} ms, p95 ${s.latency_p95_ms} ms`;
  return (
    `${s.results}${s.complete ? '' : ' (the newest)'} results from ${s.first_at} to ${s.last_at}: ` +
    `${s.up} up, ${s.degraded} degraded, ${s.down} down` +
    `${s.inconclusive ? `, ${s.inconclusive} inconclusive` : ''}; ${latency}`
  );
}

/** One location's part in words: `office down (HTTP 503)`, `eu-west-1 up 41 ms`, `us-east-1 unknown`. */
function locationWords(part: NonNullable<Result['locations']>[number]): string {
  if (part.outcome === 'unknown') return `${part.location} unknown (no report)`;
  if (part.outcome === 'down') {
    const why = part.error_message || (part.status_code ? `HTTP ${part.status_code}` : 'failed');
    return `${part.location} down (${why})`;
  }
  return `${part.location} ${part.outcome} ${part.latency_ms} ms`;
}

/** The newest located slot's parts in words (a located check's results carry them), or ''. */
function newestLocationsWords(results: readonly Result[]): string {
  const newest = results.find((r) => r.locations && r.locations.length > 0);
  if (!newest?.locations) return '';
  return ` Newest slot (${newest.checked_at}, ${newest.outcome}) by location: ${newest.locations.map(locationWords).join(', ')}.`;
}

export const getCheckResults: BuiltinTool<CheckToolDeps> = {
  name: 'get_check_results',
  offer: {
    toolset: 'catalog-ops',
    order: 60,
    version: '2.2.0',
    description:
      "Per-attempt results of one check (outcome, latency, error) over the last hours, newest first and paged (next_cursor continues); the first page also summarises the window: results by outcome, latency p50/p95, first and last time. A check probed from several locations shows each location's outcome per result (locations), and a slot too few locations reported is inconclusive (neither up nor down).",
    inputSchema: checkResultsInput,
  },
  annotations: { title: 'Check results', ...READS },
  handler: (deps, caller, args) =>
    asToolResult(async () => {
      const checkId = requiredString(args, 'check_id');
      const check = await deps.checkService.requireCheck(caller.tenantId, checkId);
      const name = checkNameOf(check);
      const entity = `${check.blueprint_slug}/${check.entity_slug}`;
      const hours = positiveInt(args, 'hours', 1, RESULT_LIMITS.maxHours);
      const limit = positiveInt(args, 'limit', RESULT_LIMITS.defaultLimit, RESULT_LIMITS.maxLimit);
      const sinceMs = deps.clock.now() - hours * 3_600_000;
      const given = optionalString(args, 'cursor');
      // One list: the check's results (their cursors are sealed for this check), cut at the window's start.
      const page = await readLists(
        [
          {
            async read(room, cursor) {
              const read = await deps.checkReads.results(caller.tenantId, checkId, {
                limit: room,
                ...(cursor ? { cursor } : {}),
              });
              const inWindow = read.results.filter((r) => Date.parse(r.checked_at) >= sinceMs);
              const ended = inWindow.length < read.results.length;
              return { items: inWindow, next_cursor: ended ? null : read.next_cursor };
            },
          },
        ],
        decodeListCursor(given, 1),
        limit,
      );
      const window =
        given === undefined ? await windowResults(deps, caller.tenantId, checkId, sinceMs) : null;
      const summary = window ? summarise(window.results, window.complete) : null;
      const owner = await deps.entityStore.getById(caller.tenantId, check.entity_id);
      const about = `Check "${name}" of ${owner ? entityWords(owner) : entity}`;
      const words = summary
        ? `${about}, last ${hours} h: ${summaryWords(summary)}.`
        : `${about}, last ${hours} h, a further page.`;
      const more = page.next ? ' More results: pass next_cursor as cursor.' : '';
      return toolResult(
        `${words}${newestLocationsWords(page.items)} Showing ${page.items.length}, newest first.${more}`,
        {
          check_id: checkId,
          check_name: name,
          entity: {
            id: check.entity_id,
            name: owner?.name ?? null,
            blueprint_slug: check.blueprint_slug,
            slug: check.entity_slug,
          },
          hours,
          summary,
          results: page.items,
          next_cursor: page.next ? encodeListCursor(page.next) : null,
        },
        { compact: true },
      );
    }),
};
