import type { Clock } from '../platform/clock.ts';
import { ValidationError } from '../platform/errors.ts';
import type { CursorSeal } from '../store/cursor-seal.ts';
import {
  openPageCursor,
  type PageRequest,
  type PageSource,
  readPage,
  sealPageCursor,
  unexpired,
} from '../store/paging.ts';
import type { Item, Table } from '../store/table.ts';
import { cellResultsSource, holdsResultOf, parseCellResults } from './cell-result-items.ts';
import { memberResult } from './cell-view.ts';
import type { CheckService } from './check-service.ts';
import { publicResult, publicTransition } from './records.ts';
import { parseResult, resultsPositionBefore, resultsSource } from './result-items.ts';
import { readSparkline } from './sparkline-reads.ts';
import { checkTransitionsSource, parseTransition } from './transition-items.ts';

export interface CheckReadDeps {
  table: Table;
  /** Seals the cursors of the paged lists. */
  cursors: CursorSeal;
  checkService: CheckService;
  clock: Clock;
}

/**
 * Reads under one check: its results and its transitions (paged, newest first) and its sparkline.
 * Each first resolves the check in the caller's tenant (404 otherwise, and once its entity is gone).
 */
export function createCheckReadService(deps: CheckReadDeps) {
  const { clock } = deps;

  /** Whether `cursor` was sealed for `source` (a 400 for it is not this list's). */
  const cursorOf = async (cursor: string, source: PageSource): Promise<boolean> => {
    try {
      await openPageCursor(deps.cursors, cursor, source);
      return true;
    } catch (err) {
      if (err instanceof ValidationError) return false;
      throw err;
    }
  };

  /** A page of the check's per-check result items (from `cursor`), as the API shows them. */
  const ownResults = async (checkId: string, page: PageRequest, live: (item: Item) => boolean) => {
    const read = await readPage(deps, resultsSource(checkId), page, live);
    return {
      results: read.items.map((item) => publicResult(parseResult(item))),
      next_cursor: read.nextCursor,
    };
  };

  /**
   * A pull check in a cell: its entries of the cell's slots, newest first (one per slot), then the
   * per-check results it had before it moved into the cell (the migration), older than its first
   * cell slot, until they expire. The cursor is sealed for the list its last item came from.
   */
  const cellMemberResults = async (
    check: { id: string; cell: { cell_id: string } },
    page: PageRequest,
    live: (item: Item) => boolean,
  ) => {
    const cellSource = cellResultsSource(check.cell.cell_id);
    if (page.cursor !== undefined && !(await cursorOf(page.cursor, cellSource))) {
      return ownResults(check.id, page, live);
    }
    const read = await readPage(
      deps,
      cellSource,
      page,
      (item) => live(item) && holdsResultOf(item, check.id),
    );
    const slots = read.items.map(parseCellResults);
    const results = slots.flatMap((slot) => {
      const result = memberResult(slot, check.id);
      return result ? [publicResult(result)] : [];
    });
    if (read.nextCursor !== null) return { results, next_cursor: read.nextCursor };
    // The cell's slots end here: the per-check results follow, older than the first slot.
    const first = slots.at(-1)?.slot;
    const ownSource = resultsSource(check.id);
    const start = first
      ? await sealPageCursor(deps.cursors, resultsPositionBefore(check.id, first), ownSource)
      : undefined;
    const rest = page.limit - results.length;
    const own = await ownResults(check.id, { limit: Math.max(rest, 1), cursor: start }, live);
    if (rest > 0) return { results: [...results, ...own.results], next_cursor: own.next_cursor };
    // A full page: the next one starts at the per-check results, if there are any.
    return { results, next_cursor: own.results.length > 0 ? (start ?? null) : null };
  };

  return {
    /** A page of the check's results, newest first by checked_at. */
    async results(tenantId: string, checkId: string, page: PageRequest) {
      const check = await deps.checkService.requireCheck(tenantId, checkId);
      const live = unexpired(clock.now());
      return check.cell
        ? cellMemberResults({ id: check.id, cell: check.cell }, page, live)
        : ownResults(check.id, page, live);
    },

    /** A page of the check's own state changes (kind `check`), newest first. */
    async transitions(tenantId: string, checkId: string, page: PageRequest) {
      const check = await deps.checkService.requireCheck(tenantId, checkId);
      const live = unexpired(clock.now());
      const read = await readPage(
        deps,
        checkTransitionsSource(check.id),
        page,
        (item) => item.kind === 'check' && live(item),
      );
      return {
        transitions: read.items.map((item) => publicTransition(parseTransition(item))),
        next_cursor: read.nextCursor,
      };
    },

    /** The check's sparkline buckets over the last `hours`, oldest first. */
    async sparkline(tenantId: string, checkId: string, options: { hours: number; buckets: number }) {
      const check = await deps.checkService.requireCheck(tenantId, checkId);
      return {
        check_id: check.id,
        ...(await readSparkline(deps.table, check, { ...options, nowMs: clock.now() })),
      };
    },
  };
}

export type CheckReadService = ReturnType<typeof createCheckReadService>;
