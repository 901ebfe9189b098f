import { getBlueprint } from '../../catalog/blueprints.ts';
import type { EntityStore } from '../../catalog/entities.ts';
import { ValidationError } from '../../platform/errors.ts';
import type { CursorSeal } from '../../store/cursor-seal.ts';
import { openPageCursor, type PageSource, sealPageCursor } from '../../store/paging.ts';
import { type Item, MAX_QUERY_LIMIT, type Table } from '../../store/table.ts';
import type { CellView } from '../cells/cell-view.ts';
import {
  entityChecksSource,
  entityDefinitionItemsPage,
  isDefinition,
  tenantCheckItemsPage,
  tenantChecksSource,
} from '../check-items.ts';
import { type CheckFilter, checkMatcher, filtering, type NamedCheck } from '../definitions/check-filter.ts';
import { type CheckStore, withStates } from '../definitions/check-store.ts';
import type { CheckRecord } from '../records.ts';

/**
 * Pages of GET /v1/checks, oldest check first (the order of the whole list). Each page is read
 * with queries bounded by its size: the tenant's check definitions for the whole tenant, or the
 * entity's checks on gsi1, with their states fetched by key from the checks' partitions. The cursor
 * is the position of the page's last item, sealed for the list and the tenant (paging.ts).
 *
 * Filters (check-filter.ts) are applied to the checks read, so a filtered page reads on until it
 * is full, but never more than SCAN_ITEM_BUDGET stored items per request: a page that reaches the
 * budget ends short, with a cursor after the last check it looked at, so the next page goes on
 * from there and no check is skipped. The cost of a filtered page is therefore at most the budget
 * (in DynamoDB: 2 queries of up to 1,000 definitions, strongly consistent, and their states in
 * batch reads of 100), whatever the tenant's size.
 */

/** Stored check items one page request may read (two per check: its definition and its state). */
const SCAN_ITEM_BUDGET = 4000;

export interface CheckPageQuery extends CheckFilter {
  entity_id?: string | undefined;
  limit: number;
  cursor?: string | undefined;
}

export interface CheckPage {
  checks: NamedCheck[];
  nextCursor: string | null;
}

export interface CheckPageDeps {
  table: Table;
  cursors: CursorSeal;
  entities: EntityStore;
  cellView: CellView;
  checks: CheckStore;
  /** SCAN_ITEM_BUDGET unless given (tests give a small one). */
  scanItemBudget?: number;
}

/** A listed check and the item whose position continues the list after it. */
interface Placed<C extends CheckRecord = CheckRecord> {
  check: C;
  at: Item;
}

/** What a read of up to `want` checks found, and where it stopped early (the budget spent). */
interface Read {
  kept: Placed<NamedCheck>[];
  stoppedAt: Item | undefined;
}

/** Reads one page of a tenant's checks, or of one entity's checks. */
export function createCheckPager(deps: CheckPageDeps) {
  const { table, cursors } = deps;
  const budget = deps.scanItemBudget ?? SCAN_ITEM_BUDGET;

  /**
   * The checks among `placed` whose entity still exists (a deleted entity's checks are gone at
   * once), named, as shown (cell state overlaid when the state filter needs it), and matching.
   */
  const keep = async (tenantId: string, placed: Placed[], filter: CheckFilter) => {
    const names = await deps.entities.names(
      tenantId,
      placed.map((p) => p.check.entity_id),
    );
    let named: Placed<NamedCheck>[] = placed.flatMap((p) => {
      const name = names.get(p.check.entity_id);
      return name === undefined ? [] : [{ at: p.at, check: { ...p.check, entity_name: name } }];
    });
    if (filter.state !== undefined) named = await overlaid(named);
    const matches = checkMatcher(filter);
    return named.filter((p) => matches(p.check));
  };

  /** The checks as the API shows them (a cell member's state and times from its cell). */
  const overlaid = async (placed: Placed<NamedCheck>[]): Promise<Placed<NamedCheck>[]> => {
    const shown = await deps.cellView.overlay(placed.map((p) => p.check));
    return placed.map((p, i) => ({
      at: p.at,
      check: { ...(shown[i] ?? p.check), entity_name: p.check.entity_name },
    }));
  };

  /**
   * Up to `want` checks after `cursor` of a list of definitions (`readPage`: the tenant's partition,
   * or an entity's gsi1 entries), each placed at its definition, each query's states read by key
   * from the checks' partitions (one batch read per 100).
   */
  const readDefinitions = async (
    tenantId: string,
    want: number,
    start: string | undefined,
    filter: CheckFilter,
    readPage: (input: { limit: number; cursor: string | undefined }) => Promise<{
      items: Item[];
      cursor: string | undefined;
    }>,
  ): Promise<Read> => {
    const kept: Placed<NamedCheck>[] = [];
    let cursor = start;
    let spent = 0;
    let last: Item | undefined;
    do {
      const limit = filtering(filter) ? MAX_QUERY_LIMIT : want - kept.length;
      const read = await readPage({ limit: Math.min(limit, Math.ceil((budget - spent) / 2)), cursor });
      // Each definition, and its state read by key.
      spent += 2 * read.items.length;
      last = read.items.at(-1) ?? last;
      const byId = new Map((await withStates(table, tenantId, read.items)).map((c) => [c.id, c]));
      const joined = read.items.flatMap((item) => {
        const check = isDefinition(item) ? byId.get(String(item.id)) : undefined;
        return check ? [{ check, at: item }] : [];
      });
      for (const placed of await keep(tenantId, joined, filter)) if (kept.length < want) kept.push(placed);
      cursor = read.cursor;
    } while (kept.length < want && cursor && spent < budget);
    return { kept, stoppedAt: kept.length < want && cursor ? last : undefined };
  };

  /** A blueprint filter must name one of the tenant's blueprints (a mistyped slug is a 400, not an empty list). */
  const requireBlueprint = async (tenantId: string, filter: CheckFilter) => {
    if (filter.blueprint !== undefined && !(await getBlueprint(table, tenantId, filter.blueprint))) {
      throw ValidationError.field('blueprint', 'No blueprint has this slug.');
    }
  };

  return {
    /** Every check of the tenant (or of one entity) that matches `filter` (the list without `limit`: unbounded). */
    async all(
      tenantId: string,
      filter: CheckFilter & { entity_id?: string | undefined },
    ): Promise<NamedCheck[]> {
      await requireBlueprint(tenantId, filter);
      const checks = await deps.checks.list(tenantId);
      const wanted = filter.entity_id ? checks.filter((c) => c.entity_id === filter.entity_id) : checks;
      const placed = wanted.map((check) => ({ check, at: { pk: '', sk: '', entity: '' } }));
      const kept = await keep(tenantId, placed, filter);
      return (filter.state === undefined ? await overlaid(kept) : kept).map((p) => p.check);
    },

    /** A page of up to `query.limit` checks, and the sealed cursor of the next page when more follow. */
    async page(tenantId: string, query: CheckPageQuery): Promise<CheckPage> {
      await requireBlueprint(tenantId, query);
      const entityId = query.entity_id;
      const source: PageSource = entityId
        ? entityChecksSource(tenantId, entityId)
        : tenantChecksSource(tenantId);
      const start =
        query.cursor === undefined ? undefined : await openPageCursor(cursors, query.cursor, source);
      const want = query.limit + 1;
      let read: Read;
      if (entityId) {
        // The entity's checks are listed only while it exists in this tenant.
        const exists = (await deps.entities.existing(tenantId, [entityId])).has(entityId);
        read = exists
          ? await readDefinitions(tenantId, want, start, query, (input) =>
              entityDefinitionItemsPage(table, tenantId, entityId, input),
            )
          : { kept: [], stoppedAt: undefined };
      } else {
        read = await readDefinitions(tenantId, want, start, query, (input) =>
          tenantCheckItemsPage(table, tenantId, input),
        );
      }
      const page = read.kept.slice(0, query.limit);
      const last = page.at(-1);
      // Full: more follow after the page's last check. Short: the budget ran out at `stoppedAt`.
      const after = read.kept.length > query.limit ? last?.at : read.stoppedAt;
      // The state filter overlaid the cells already; other pages are overlaid here, once.
      const shown = query.state === undefined ? await overlaid(page) : page;
      return {
        checks: shown.map((p) => p.check),
        nextCursor: after ? await sealPageCursor(cursors, after, source) : null,
      };
    },
  };
}
