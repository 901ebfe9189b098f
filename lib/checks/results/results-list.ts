import { isoTime } from '../../platform/clock.ts';
import { type PageDeps, type PageRequest, unexpired } from '../../store/paging.ts';
import { readSourcesPage, type SpanSource } from '../../store/source-pages.ts';
import { cellResultsSource, holdsResultOf, parseCellResults } from '../cells/cell-result-items.ts';
import { memberResult } from '../cells/cell-view.ts';
import { parseResult, resultsSource } from '../items/result-items.ts';
import { publicResult } from '../records.ts';

/**
 * GET /v1/checks/{id}/results: one newest-first list over every place a check's results are kept.
 * A pull check's results are in its cell's slots; when it leaves a cell (disabled, moved to another
 * interval, switched to push) the cell is kept in its `former_cells` with when it left, and its own
 * per-check items hold what it recorded outside cells (push, and before the cells migration). The
 * times it left cells cut its history into spans, newest first; in each span the cell it was in
 * (if any) comes first, then its own items of that span, which are older (a check records per-check
 * results only while in no cell). One sealed cursor runs across all of them (lib/store/source-pages.ts).
 */

/** What the list needs of the check. */
export interface ResultsOwner {
  id: string;
  cell?: { cell_id: string } | null | undefined;
  former_cells?: readonly { cell_id: string; until: string }[] | undefined;
}

/** A source of the list and how its items read. */
interface ListSource extends SpanSource {
  cell: boolean;
}

/** The check's sources, newest first: per span, its cell's slots, then its own items. */
function resultSources(check: ResultsOwner): ListSource[] {
  const former = check.former_cells ?? [];
  const own = resultsSource(check.id);
  const sources: ListSource[] = [];
  for (let span = 0; span <= former.length; span += 1) {
    const before = span === 0 ? undefined : former[span - 1]?.until;
    const from = former[span]?.until;
    const cellId = span === 0 ? check.cell?.cell_id : former[span - 1]?.cell_id;
    if (cellId) sources.push({ ...cellResultsSource(cellId), from, before, cell: true });
    sources.push({ ...own, from, before, cell: false });
  }
  return sources;
}

/** What the check's results cursors are sealed for: one list per check, whatever its sources. */
const listOf = (checkId: string) => JSON.stringify(['check results', checkId]);

/**
 * The sources cut at `until` (ISO 8601, any offset): each keeps only sort keys at or before that time
 * (a per-check item's `<checked_at or slot>#<id>`, a cell's `<slot>`, both ISO UTC). The cursor
 * stays the list's, so the next pages go on past it as any page's do.
 */
function cutAt(sources: ListSource[], until: string | undefined): ListSource[] {
  if (until === undefined) return sources;
  const top = `${isoTime(Date.parse(until))}\uffff`;
  return sources.map((s) => ({ ...s, before: s.before === undefined || s.before > top ? top : s.before }));
}

/** A page of the check's results as the API shows them, and the cursor of the next page. */
export async function resultsPage(
  deps: PageDeps,
  check: ResultsOwner,
  page: PageRequest & { until?: string | undefined },
  nowMs: number,
) {
  const live = unexpired(nowMs);
  const sources = cutAt(resultSources(check), page.until);
  const read = await readSourcesPage(deps, listOf(check.id), sources, page, (item, index) =>
    sources[index]?.cell ? live(item) && holdsResultOf(item, check.id) : live(item),
  );
  const results = read.items.flatMap(({ item, source }) => {
    if (!sources[source]?.cell) return [publicResult(parseResult(item))];
    const result = memberResult(parseCellResults(item), check.id);
    return result ? [publicResult(result)] : [];
  });
  return { results, next_cursor: read.nextCursor };
}
