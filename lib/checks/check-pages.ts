import type { EntityStore } from '../catalog/entity-store.ts';
import type { CursorSeal } from '../store/cursor-seal.ts';
import { batchGetAll } from '../store/items.ts';
import { openPageCursor, type PageSource, sealPageCursor } from '../store/paging.ts';
import { tenantPk } from '../store/partitions.ts';
import { type Item, MAX_QUERY_LIMIT, type Table } from '../store/table.ts';
import { CHECK_PREFIX, checkKeys, entityChecksPk } from './check-keys.ts';
import { CHECK_ENTITY, CHECK_STATE_ENTITY, joinCheckItems } from './check-store.ts';
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

  const tenantSource = (tenantId: string): PageSource => ({
    pk: tenantPk(tenantId),
    prefix: CHECK_PREFIX,
    scope: 'check list',
  });
  const entitySource = (tenantId: string, entityId: string): PageSource => ({
    index: 'gsi1',
    pk: entityChecksPk(entityId),
    prefix: 'chk_',
    scope: `check list of ${tenantId}`,
  });

  /** The checks among `placed` whose entity still exists (a deleted entity's checks are gone at once). */
  const alive = async (tenantId: string, placed: Placed[]): Promise<Placed[]> => {
    const found = await deps.entities.existing(
      tenantId,
      placed.map((p) => p.check.entity_id),
    );
    return placed.filter((p) => found.has(p.check.entity_id));
  };

  /** Up to `want` checks of the tenant partition after `cursor`, each placed at its state item. */
  const readTenant = async (tenantId: string, source: PageSource, want: number, start?: string) => {
    const kept: Placed[] = [];
    // A definition whose state item has not been read yet (it sorts right after it).
    const waiting = new Map<string, Item>();
    let cursor = start;
    do {
      const read = await table.query({
        pk: source.pk,
        sk: { op: 'beginsWith', prefix: source.prefix },
        direction: 'asc',
        consistent: true,
        limit: Math.min(MAX_QUERY_LIMIT, 2 * (want - kept.length)),
        cursor,
      });
      const joined: Placed[] = [];
      for (const item of read.items) {
        if (item.entity === CHECK_ENTITY) waiting.set(String(item.id), item);
        if (item.entity !== CHECK_STATE_ENTITY) continue;
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
  const readEntity = async (tenantId: string, source: PageSource, want: number, start?: string) => {
    const kept: Placed[] = [];
    let cursor = start;
    do {
      const read = await table.query({
        index: 'gsi1',
        pk: source.pk,
        sk: { op: 'beginsWith', prefix: source.prefix },
        direction: 'asc',
        limit: Math.min(MAX_QUERY_LIMIT, want - kept.length),
        cursor,
      });
      const definitions = read.items.filter(
        (item) => item.pk === tenantPk(tenantId) && item.entity === CHECK_ENTITY,
      );
      const states = await batchGetAll(
        table,
        definitions.map((item) => checkKeys.state(tenantId, String(item.id))),
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
      const source = entityId ? entitySource(tenantId, entityId) : tenantSource(tenantId);
      const start =
        query.cursor === undefined ? undefined : await openPageCursor(cursors, query.cursor, source);
      const want = query.limit + 1;
      let kept: Placed[];
      if (entityId) {
        // The entity's checks are listed only while it exists in this tenant.
        const exists = (await deps.entities.existing(tenantId, [entityId])).has(entityId);
        kept = exists ? await readEntity(tenantId, source, want, start) : [];
      } else {
        kept = await readTenant(tenantId, source, want, start);
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
