import { z } from 'zod';
import { checkTypesById, tenantCheckTypes } from '../checks/check-items.ts';
import type { CHECK_TYPES } from '../checks/records.ts';
import type { CursorSeal } from '../store/cursor-seal.ts';
import { batchGetAll, parseItem } from '../store/items.ts';
import { openPageCursor, type PageSource, sealPageCursor } from '../store/paging.ts';
import { tenantPk } from '../store/partitions.ts';
import { type Item, MAX_QUERY_LIMIT, type Table } from '../store/table.ts';
import { readCounts } from './status-counts.ts';
import { type BoardState, STATES, statusKeys } from './status-index.ts';

/**
 * GET /v1/status: counts from the tenant's counters (one read), entities from the narrowest
 * source that answers the filters: the state index when a state is asked, else the tenant's
 * entity items (by blueprint prefix when one is asked). Index entries are checked against the
 * entity items they name, so a stale entry never shows a wrong state: it is skipped.
 */

const ENTITY_PREFIX = 'ENT#';
const entityStatusSchema = z.object({
  id: z.string(),
  blueprint_slug: z.string(),
  slug: z.string(),
  name: z.string(),
  state: z.enum(STATES),
  check_states: z.record(z.string(), z.enum(['unknown', 'up', 'down'])).optional(),
});
type EntityStatus = z.infer<typeof entityStatusSchema>;

export interface BoardQuery {
  state?: BoardState | undefined;
  blueprint_slug?: string | undefined;
  /** Page size; absent: every matching entity. */
  limit?: number | undefined;
  cursor?: string | undefined;
}

export interface BoardDeps {
  table: Table;
  cursors: CursorSeal;
}

/** Reads the status board of a tenant (see the module comment). */
export function createBoardReader(deps: BoardDeps) {
  const { table } = deps;

  /** Where the entities come from, and how a read item becomes an entity item (or is skipped). */
  const sourceOf = (tenantId: string, query: BoardQuery, indexed: boolean): PageSource => {
    const prefix = query.blueprint_slug ? `${ENTITY_PREFIX}${query.blueprint_slug}#` : ENTITY_PREFIX;
    if (query.state && indexed) return { pk: statusKeys.statePk(tenantId, query.state), prefix };
    return { pk: tenantPk(tenantId), prefix };
  };

  /** Entity items for the read items of `source`, in the same order, without those that do not match. */
  const resolve = async (tenantId: string, source: PageSource, read: Item[], state?: BoardState) => {
    const pairs: { at: Item; entity: Item }[] = [];
    if (source.pk === tenantPk(tenantId)) {
      for (const item of read) if (!state || item.state === state) pairs.push({ at: item, entity: item });
      return pairs;
    }
    const found = await batchGetAll(
      table,
      read.map((entry) => ({ pk: tenantPk(tenantId), sk: entry.sk })),
    );
    const bySk = new Map(found.map((item) => [item.sk, item]));
    for (const entry of read) {
      const entity = bySk.get(entry.sk);
      if (entity && entity.state === state) pairs.push({ at: entry, entity });
    }
    return pairs;
  };

  /** Up to `limit` matching entity items (all when undefined) and the sealed cursor when more follow. */
  const readEntities = async (tenantId: string, query: BoardQuery, indexed: boolean) => {
    const source = sourceOf(tenantId, query, indexed);
    const want = query.limit === undefined ? Number.POSITIVE_INFINITY : query.limit + 1;
    const kept: { at: Item; entity: Item }[] = [];
    let cursor =
      query.cursor === undefined ? undefined : await openPageCursor(deps.cursors, query.cursor, source);
    do {
      const page = await table.query({
        pk: source.pk,
        sk: { op: 'beginsWith', prefix: source.prefix },
        limit: Math.min(MAX_QUERY_LIMIT, want - kept.length),
        cursor,
        consistent: true,
      });
      for (const pair of await resolve(tenantId, source, page.items, query.state)) {
        if (kept.length < want) kept.push(pair);
      }
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
  const checkTypesOf = async (tenantId: string, entities: EntityStatus[], whole: boolean) => {
    if (whole) return tenantCheckTypes(table, tenantId);
    const ids = [...new Set(entities.flatMap((e) => Object.keys(e.check_states ?? {})))];
    return checkTypesById(table, tenantId, ids);
  };

  const view = (entity: EntityStatus, checkTypes: Map<string, (typeof CHECK_TYPES)[number]>) => ({
    id: entity.id,
    blueprint_slug: entity.blueprint_slug,
    slug: entity.slug,
    name: entity.name,
    state: entity.state,
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
      const [counted, unindexed, wholeCheckTypes] = await Promise.all([
        readCounts(table, tenantId),
        query.state ? undefined : readEntities(tenantId, query, false),
        whole ? checkTypesOf(tenantId, [], true) : undefined,
      ]);
      const read = unindexed ?? (await readEntities(tenantId, query, counted !== undefined));
      const entities = read.entities.map((item) => parseItem(entityStatusSchema, item));
      const checkTypes = wholeCheckTypes ?? (await checkTypesOf(tenantId, entities, false));
      // Before the tenant is seeded (docs/data-model.md), counts come from its entity items.
      const counts =
        counted ??
        (whole
          ? tally(entities.map((e) => e.state))
          : tally(
              (await readEntities(tenantId, {}, false)).entities.map(
                (item) => parseItem(entityStatusSchema, item).state,
              ),
            ));
      return { entities: entities.map((e) => view(e, checkTypes)), ...counts, next_cursor: read.nextCursor };
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
