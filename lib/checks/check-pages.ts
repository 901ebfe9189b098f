import type { EntityStore } from '../catalog/entity-store.ts';
import type { CursorSeal } from '../store/cursor-seal.ts';
import { openPageCursor, type PageSource, sealPageCursor } from '../store/paging.ts';
import type { Item, Table } from '../store/table.ts';
import {
  entityChecksSource,
  entityDefinitionItemsPage,
  isDefinition,
  tenantCheckItemsPage,
  tenantChecksSource,
} from './check-items.ts';
import { isState, statesById } from './check-state-items.ts';
import { joinCheckItems } from './check-store.ts';
import type { CheckRecord } from './records.ts';

/**
 * Pages of GET /v1/checks, oldest check first (the order of the whole list). Each page is read
 * with queries bounded by its size: the tenant's check items (a definition and its state, adjacent)
 * for the whole tenant, or the entity's checks on gsi1 with their states fetched by key. The cursor
 * is the position of the page's last item, sealed for the list and the tenant (paging.ts).
 */

export interface CheckPageQuery {
  entity_id?: string | undefined;
  limit: number;
  cursor?: string | undefined;
}

export interface CheckPage {
  checks: CheckRecord[];
  nextCursor: string | null;
}

export interface CheckPageDeps {
  table: Table;
  cursors: CursorSeal;
  entities: EntityStore;
}

/** A listed check and the item whose position continues the list after it. */
interface Placed {
  check: CheckRecord;
  at: Item;
}

/** Reads one page of a tenant's checks, or of one entity's checks. */
export function createCheckPager(deps: CheckPageDeps) {
  const { table, cursors } = deps;

  /** The checks among `placed` whose entity still exists (a deleted entity's checks are gone at once). */
  const alive = async (tenantId: string, placed: Placed[]): Promise<Placed[]> => {
    const found = await deps.entities.existing(
      tenantId,
      placed.map((p) => p.check.entity_id),
    );
    return placed.filter((p) => found.has(p.check.entity_id));
  };

  /** Up to `want` checks of the tenant partition after `cursor`, each placed at its state item. */
  const readTenant = async (tenantId: string, want: number, start?: string) => {
    const kept: Placed[] = [];
    // A definition whose state item has not been read yet (it sorts right after it).
    const waiting = new Map<string, Item>();
    let cursor = start;
    do {
      const read = await tenantCheckItemsPage(table, tenantId, { limit: 2 * (want - kept.length), cursor });
      const joined: Placed[] = [];
      for (const item of read.items) {
        if (isDefinition(item)) waiting.set(String(item.id), item);
        if (!isState(item)) continue;
        const definition = waiting.get(String(item.check_id));
        if (!definition) continue;
        waiting.delete(String(item.check_id));
        const [check] = joinCheckItems([definition, item]);
        if (check) joined.push({ check, at: item });
      }
      for (const placed of await alive(tenantId, joined)) if (kept.length < want) kept.push(placed);
      cursor = read.cursor;
    } while (kept.length < want && cursor);
    return kept;
  };

  /** Up to `want` checks of one entity (gsi1) after `cursor`, each placed at its definition. */
  const readEntity = async (tenantId: string, entityId: string, want: number, start?: string) => {
    const kept: Placed[] = [];
    let cursor = start;
    do {
      const read = await entityDefinitionItemsPage(table, tenantId, entityId, {
        limit: want - kept.length,
        cursor,
      });
      const definitions = read.items;
      const states = await statesById(
        table,
        tenantId,
        definitions.map((item) => String(item.id)),
      );
      const byId = new Map(joinCheckItems([...definitions, ...states]).map((c) => [c.id, c]));
      for (const item of definitions) {
        const check = byId.get(String(item.id));
        if (check && kept.length < want) kept.push({ check, at: item });
      }
      cursor = read.cursor;
    } while (kept.length < want && cursor);
    return kept;
  };

  return {
    /** A page of up to `query.limit` checks, and the sealed cursor of the next page when more follow. */
    async page(tenantId: string, query: CheckPageQuery): Promise<CheckPage> {
      const entityId = query.entity_id;
      const source: PageSource = entityId
        ? entityChecksSource(tenantId, entityId)
        : tenantChecksSource(tenantId);
      const start =
        query.cursor === undefined ? undefined : await openPageCursor(cursors, query.cursor, source);
      const want = query.limit + 1;
      let kept: Placed[];
      if (entityId) {
        // The entity's checks are listed only while it exists in this tenant.
        const exists = (await deps.entities.existing(tenantId, [entityId])).has(entityId);
        kept = exists ? await readEntity(tenantId, entityId, want, start) : [];
      } else {
        kept = await readTenant(tenantId, want, start);
      }
      const page = kept.slice(0, query.limit);
      const last = page.at(-1);
      const more = kept.length > query.limit && last !== undefined;
      return {
        checks: page.map((p) => p.check),
        nextCursor: more ? await sealPageCursor(cursors, last.at, source) : null,
      };
    },
  };
}

export type CheckPager = ReturnType<typeof createCheckPager>;
