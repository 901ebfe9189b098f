import {
  type BoardState,
  type EntityState,
  entityListSource,
  parseEntityState,
  readEntityItems,
  readEntityListChunk,
  readStateEntryChunk,
  stateIndexSource,
} from '../catalog/entities.ts';
import { checkTypesOf } from '../checks/check-items.ts';
import type { CheckType } from '../checks/records.ts';
import { maintenanceLookup } from '../maintenance/evaluate.ts';
import type { Clock } from '../platform/clock.ts';
import type { CursorSeal } from '../store/cursor-seal.ts';
import { openPageCursor, type PageSource, sealPageCursor } from '../store/paging.ts';
import { type Item, MAX_QUERY_LIMIT, type Table } from '../store/table.ts';
import { boardRecent } from './recent-strip.ts';
import { readCounts } from './status-counts.ts';

/**
 * GET /v1/status: counts from the tenant's counters (one read), entities from the narrowest
 * source that answers the filters: the state index when a state is asked, else the tenant's
 * entity items (by blueprint prefix when one is asked). Index entries are checked against the
 * entity items they name, so a stale entry never shows a wrong state: it is skipped.
 */

export interface BoardQuery {
  state?: BoardState | undefined;
  blueprint_slug?: string | undefined;
  /** Page size; absent: every matching entity. */
  limit?: number | undefined;
  cursor?: string | undefined;
  /** `recent`: each entity's recent-results strip and 24 h uptime (recent-strip.ts), for a page of at most RECENT_MAX_PAGE. */
  include?: 'recent' | undefined;
  /** Count the entities read that have an untold channel (lib/notify's countUntold: one query per entity that changed state). */
  untold?: boolean | undefined;
}

/** The largest page `include=recent` is answered for: its cost grows with the page's cells and push checks. */
export const RECENT_MAX_PAGE = 200;

export interface BoardDeps {
  table: Table;
  cursors: CursorSeal;
  /** What `in_maintenance` is computed at (the tenant's windows, read once per board). */
  clock: Clock;
  /** How many of `entities` have a channel whose last word is not their state (lib/notify's, given by the composition). */
  countUntold(tenantId: string, entities: readonly EntityState[]): Promise<number>;
}

/** Reads the status board of a tenant (see the module comment). */
export function createBoardReader(deps: BoardDeps) {
  const { table } = deps;

  /** Where the entities come from: the state index when a state is asked (and indexed), else the entity items. */
  const sourceOf = (tenantId: string, query: BoardQuery, indexed: boolean): PageSource =>
    query.state && indexed
      ? stateIndexSource(tenantId, query.state, query.blueprint_slug)
      : entityListSource(tenantId, query.blueprint_slug);

  /** One read of `source`: the matching entity items, each with the item that positions it in the list. */
  const readChunk = async (
    tenantId: string,
    source: PageSource,
    state: BoardState | undefined,
    indexed: boolean,
    page: { limit: number; cursor: string | undefined },
  ) => {
    const pairs: { at: Item; entity: Item }[] = [];
    if (!(state && indexed)) {
      const read = await readEntityListChunk(table, source, page);
      for (const item of read.items)
        if (!state || item.state === state) pairs.push({ at: item, entity: item });
      return { pairs, cursor: read.cursor };
    }
    const read = await readStateEntryChunk(table, source, page);
    const found = await readEntityItems(table, tenantId, read.entries);
    const byRef = new Map(
      found.map((item) => [JSON.stringify([item.blueprint_slug, item.slug]), item] as const),
    );
    for (const entry of read.entries) {
      const entity = byRef.get(JSON.stringify([entry.blueprint_slug, entry.slug]));
      if (entity && entity.state === state) pairs.push({ at: entry.at, entity });
    }
    return { pairs, cursor: read.cursor };
  };

  /** Up to `limit` matching entity items (all when undefined) and the sealed cursor when more follow. */
  const readEntities = async (tenantId: string, query: BoardQuery, indexed: boolean) => {
    const source = sourceOf(tenantId, query, indexed);
    const want = query.limit === undefined ? Number.POSITIVE_INFINITY : query.limit + 1;
    const kept: { at: Item; entity: Item }[] = [];
    let cursor =
      query.cursor === undefined ? undefined : await openPageCursor(deps.cursors, query.cursor, source);
    do {
      const page = await readChunk(tenantId, source, query.state, indexed, {
        limit: Math.min(MAX_QUERY_LIMIT, want - kept.length),
        cursor,
      });
      for (const pair of page.pairs) if (kept.length < want) kept.push(pair);
      cursor = page.cursor;
    } while (kept.length < want && cursor);
    const limit = query.limit;
    if (limit === undefined || kept.length <= limit) {
      return { entities: kept.map((pair) => pair.entity), nextCursor: null };
    }
    const page = kept.slice(0, limit);
    const last = page.at(-1);
    return {
      entities: page.map((pair) => pair.entity),
      nextCursor: last ? await sealPageCursor(deps.cursors, last.at, source) : null,
    };
  };

  /** check id -> type for the checks of `entities`: every definition of the tenant for a whole board, else by key. */
  const checkTypesOfBoard = (tenantId: string, entities: EntityState[], whole: boolean) =>
    checkTypesOf(
      table,
      tenantId,
      whole ? undefined : entities.flatMap((e) => Object.keys(e.check_states ?? {})),
    );

  const view = (entity: EntityState, checkTypes: Map<string, CheckType>, inMaintenance: boolean) => ({
    id: entity.id,
    blueprint_slug: entity.blueprint_slug,
    slug: entity.slug,
    name: entity.name,
    state: entity.state,
    in_maintenance: inMaintenance,
    checks: Object.entries(entity.check_states ?? {})
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .flatMap(([id, state]) => {
        const checkType = checkTypes.get(id);
        return checkType ? [{ id, check_type: checkType, state }] : [];
      }),
  });

  return {
    /** The board: tenant-wide counts and the entities that match `query` (a page of them with `limit`). */
    async read(tenantId: string, query: BoardQuery = {}) {
      const whole = query.limit === undefined && !query.state && !query.blueprint_slug;
      // Only a state page depends on the counters (the index exists once they do), and the whole
      // board's check types need no entity: whatever can be read at once is.
      const [counted, unindexed, wholeCheckTypes, maintenance] = await Promise.all([
        readCounts(table, tenantId),
        query.state ? undefined : readEntities(tenantId, query, false),
        whole ? checkTypesOfBoard(tenantId, [], true) : undefined,
        maintenanceLookup(table, deps.clock, tenantId),
      ]);
      const read = unindexed ?? (await readEntities(tenantId, query, counted !== undefined));
      const entities = read.entities.map(parseEntityState);
      const checkTypes = wholeCheckTypes ?? (await checkTypesOfBoard(tenantId, entities, false));
      // Before the tenant is seeded (docs/data-model.md), counts come from its entity items.
      const counts =
        counted ??
        (whole
          ? tally(entities.map((e) => e.state))
          : tally(
              (await readEntities(tenantId, {}, false)).entities.map((item) => parseEntityState(item).state),
            ));
      const [covered, recent, untold] = await Promise.all([
        Promise.all(entities.map(async (e) => (await maintenance(e)) !== undefined)),
        query.include === 'recent'
          ? boardRecent(
              table,
              tenantId,
              entities.map((e) => ({ id: e.id, checkIds: Object.keys(e.check_states ?? {}) })),
              deps.clock.now(),
            )
          : undefined,
        query.untold ? deps.countUntold(tenantId, entities) : undefined,
      ]);
      const none = { recent: [], uptime_24h: null, results_24h: 0 };
      return {
        entities: entities.map((e, i) => ({
          ...view(e, checkTypes, covered[i] ?? false),
          ...(recent ? (recent.get(e.id) ?? none) : {}),
        })),
        ...counts,
        ...(untold === undefined ? {} : { untold }),
        next_cursor: read.nextCursor,
      };
    },
  };
}

/** Counts per state and their total. */
export function tally(states: BoardState[]) {
  const count = (state: BoardState) => states.filter((s) => s === state).length;
  return {
    total: states.length,
    up: count('up'),
    degraded: count('degraded'),
    down: count('down'),
    unknown: count('unknown'),
  };
}
