import type { CursorSeal } from '../store/cursor-seal.ts';
import { openPageCursor, sealPageCursor } from '../store/paging.ts';
import { type Item, MAX_QUERY_LIMIT, type Table } from '../store/table.ts';
import {
  type EntityState,
  entitySearchSource,
  parseEntityState,
  readEntityListChunk,
} from './entity-items.ts';

/**
 * Entities whose name or slug starts with a text, case-insensitively (search_entities), read from
 * the entity items' search indexes (entity-items.ts: gsi1 by lowercased name, gsi2 by slug), so a
 * search reads the index entries from the prefix on, never the tenant's other entities. State and
 * blueprint filters apply to what the prefix finds; a call examines at most `EXAMINE_LIMIT`
 * entries, so a filter that matches little answers a short page with a cursor rather than a long
 * read. Cursors are sealed for the index and prefix they page.
 */

/** Index entries one search call reads at most. */
export const EXAMINE_LIMIT = 2_000;

export interface SearchFilter {
  state?: EntityState['state'] | undefined;
  blueprint_slug?: string | undefined;
  /** Entities to pass over (search_entities' slug list skips those the name list showed). */
  skip?: ((entity: EntityState) => boolean) | undefined;
}

export interface SearchPage {
  entities: EntityState[];
  /** The sealed cursor continuing this list, or null at its end. */
  next_cursor: string | null;
}

/** The search reads of a table (see the module comment). */
export function createEntitySearch(deps: { table: Table; cursors: CursorSeal }) {
  return {
    /** Up to `limit` entities of one index list (`by` name or slug) from `prefix`, after `cursor`. */
    async page(
      tenantId: string,
      by: 'name' | 'slug',
      prefix: string,
      filter: SearchFilter,
      page: { limit: number; cursor?: string | undefined },
    ): Promise<SearchPage> {
      const source = entitySearchSource(tenantId, by, prefix.toLowerCase());
      const wanted = (entity: EntityState) =>
        (by === 'slug' || entity.name.toLowerCase().startsWith(prefix.toLowerCase())) &&
        (!filter.state || entity.state === filter.state) &&
        (!filter.blueprint_slug || entity.blueprint_slug === filter.blueprint_slug) &&
        !filter.skip?.(entity);
      const kept: { at: Item; entity: EntityState }[] = [];
      let examined = 0;
      let last: Item | undefined;
      let cursor = page.cursor ? await openPageCursor(deps.cursors, page.cursor, source) : undefined;
      do {
        const want = Math.min(MAX_QUERY_LIMIT, EXAMINE_LIMIT - examined, page.limit + 1 - kept.length);
        const read = await readEntityListChunk(deps.table, source, { limit: want, cursor });
        for (const item of read.items) {
          examined += 1;
          const entity = parseEntityState(item);
          if (wanted(entity)) kept.push({ at: item, entity });
          // The page ends after its last entity, or after the last entry examined when the bound ends it.
          if (kept.length <= page.limit) last = item;
          if (kept.length > page.limit) break;
        }
        cursor = read.cursor;
      } while (cursor && kept.length <= page.limit && examined < EXAMINE_LIMIT);
      const shown = kept.slice(0, page.limit);
      const more = kept.length > page.limit || (cursor !== undefined && examined >= EXAMINE_LIMIT);
      return {
        entities: shown.map((k) => k.entity),
        next_cursor: more && last ? await sealPageCursor(deps.cursors, last, source) : null,
      };
    },
  };
}

export type EntitySearch = ReturnType<typeof createEntitySearch>;
