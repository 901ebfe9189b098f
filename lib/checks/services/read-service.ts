import type { CheckRecord } from '../../check-types/check-record.ts';
import type { Clock } from '../../platform/clock.ts';
import type { CursorSeal } from '../../store/cursor-seal.ts';
import { type PageRequest, readPage, unexpired } from '../../store/paging.ts';
import type { Table } from '../../store/table.ts';
import { checkTransitionsSource, parseTransition } from '../items/transition-items.ts';
import { publicTransition } from '../records.ts';
import { recentOf } from '../results/check-recent.ts';
import { locationResultsPage } from '../results/location-results-list.ts';
import { resultsPage } from '../results/results-list.ts';
import { readSparkline } from '../results/sparkline-reads.ts';
import type { CheckService } from './check-service.ts';

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

  return {
    /** The last results and 24 h uptime of each of `checks` (a page of the list), by check id. */
    recent(checks: readonly CheckRecord[]) {
      return recentOf(deps, checks, clock.now());
    },

    /** A page of the check's results, newest first by checked_at (those at or before `until` only, when given). */
    async results(tenantId: string, checkId: string, page: PageRequest & { until?: string | undefined }) {
      const check = await deps.checkService.requireCheck(tenantId, checkId);
      return resultsPage(deps, check, page, clock.now());
    },

    /** A page of one location's own rows of the check (a located check's), newest slot first. */
    async locationResults(tenantId: string, checkId: string, location: string, page: PageRequest) {
      const check = await deps.checkService.requireCheck(tenantId, checkId);
      return locationResultsPage(deps, check, location, page, clock.now());
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
