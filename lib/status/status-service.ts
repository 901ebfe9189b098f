import { publicTransition } from '../checks/records.ts';
import { filteredTransitionsPage, parseTransition, tenantTransitionsPage } from '../checks/results.ts';
import type { Clock } from '../platform/clock.ts';
import type { CursorSeal } from '../store/cursor-seal.ts';
import { type PageRequest, unexpired } from '../store/paging.ts';
import type { Table } from '../store/table.ts';
import { type BoardDeps, type BoardQuery, createBoardReader } from './status-board.ts';

/**
 * The tenant's status board (status-board.ts: counts from the tenant's counters, entities from
 * their items or the state index, check types from the definitions; never from results) and the
 * transition feed.
 */

/** Filters of the transition feed (GET /v1/status/transitions). */
export interface TransitionFilter {
  entity_id?: string | undefined;
  first_results?: 'include' | 'exclude' | undefined;
}

export interface StatusDeps {
  table: Table;
  clock: Clock;
  /** Seals the cursors of the transition feed and of board pages. */
  cursors: CursorSeal;
  countUntold: BoardDeps['countUntold'];
}

/** Status reads: the board (GET /v1/status) and the entity transition feed (GET /v1/status/transitions). */
export function createStatusService(deps: StatusDeps) {
  const boardReader = createBoardReader(deps);

  return {
    /**
     * Tenant-wide counts per state (from the counters) and the entities matching `query`: all of
     * them, or a page with `limit` (then `next_cursor` continues it).
     */
    board(tenantId: string, query: BoardQuery = {}) {
      return boardReader.read(tenantId, query);
    },

    /**
     * A page of the tenant's entity state changes, newest first: one entity's with `entity_id`;
     * without first results (changes from `unknown`) with `first_results: 'exclude'`. A filtered
     * page looks at a bounded number of items (transition-items.ts), so it may be short and still
     * have a `next_cursor`.
     */
    async transitions(tenantId: string, page: PageRequest & TransitionFilter) {
      const live = unexpired(deps.clock.now());
      const entityId = page.entity_id;
      const skipFirst = page.first_results === 'exclude';
      const read =
        entityId === undefined && !skipFirst
          ? await tenantTransitionsPage(deps, tenantId, page, live)
          : await filteredTransitionsPage(
              deps,
              tenantId,
              { entityId, name: JSON.stringify([entityId ?? null, skipFirst]) },
              page,
              (item) =>
                live(item) &&
                (entityId === undefined || item.entity_id === entityId) &&
                !(skipFirst && item.from_state === 'unknown'),
            );
      return {
        transitions: read.items.map((item) => publicTransition(parseTransition(item))),
        next_cursor: read.nextCursor,
      };
    },
  };
}

export type StatusService = ReturnType<typeof createStatusService>;
