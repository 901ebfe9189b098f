import type { CursorSeal } from '../../store/cursor-seal.ts';
import { openPageCursor, sealPageCursor } from '../../store/paging.ts';
import { type Item, MAX_QUERY_LIMIT, type Table } from '../../store/table.ts';
import {
  type EntityPointer,
  type EntityState,
  entitySearchSource,
  parseEntityPointer,
  parseEntityState,
  readEntityItems,
  readEntityListChunk,
} from './entity-items.ts';

/**
 * Entities whose name or slug starts with a text, case-insensitively (search_entities), read from
 * the id pointers' search indexes (entity-items.ts: gsi1 by lowercased name, gsi2 by slug), so a
 * search reads the index entries from the prefix on, never the tenant's other entities. The
 * pointer holds id, blueprint, slug and name: the prefix and blueprint filters apply to it; the
 * entity items (their state) are batch-read only for the entries that pass, per index chunk when a
 * state filter needs them, else only for the page shown. A call examines at most `EXAMINE_LIMIT`
 * entries, so a filter that matches little answers a short page with a cursor rather than a long
 * read. Cursors are sealed for the index and prefix they page.
 */

/** Index entries one search call reads at most. */
const EXAMINE_LIMIT = 2_000;

export interface SearchFilter {
  state?: EntityState['state'] | undefined;
  blueprint_slug?: string | undefined;
  /** Entities to pass over (search_entities' slug list skips those the name list showed). */
  skip?: ((entity: { name: string }) => boolean) | undefined;
}

export interface SearchPage {
  entities: EntityState[];
  /** The sealed cursor continuing this list, or null at its end. */
  next_cursor: string | null;
}

type Found = { name?: string | undefined } & Pick<EntityPointer, 'blueprint_slug'>;

/** The search reads of a table (see the module comment). */
export function createEntitySearch(deps: { table: Table; cursors: CursorSeal }) {
  /** The state of each of these entities that still exists, by id (consistent batch reads). */
  const statesOf = async (tenantId: string, refs: readonly EntityPointer[]) => {
    const items = refs.length > 0 ? await readEntityItems(deps.table, tenantId, refs) : [];
    return new Map(items.map((item) => [String(item.id), parseEntityState(item)]));
  };

  return {
    /** Up to `limit` entities of one index list (`by` name or slug) from `prefix`, after `cursor`. */
    async page(
      tenantId: string,
      by: 'name' | 'slug',
      prefix: string,
      filter: SearchFilter,
      page: { limit: number; cursor?: string | undefined },
    ): Promise<SearchPage> {
      const lower = prefix.toLowerCase();
      const source = entitySearchSource(tenantId, by, lower);
      // What the pointer tells (and, read again on the entity, what a rename since may have changed).
      const matches = (e: Found) =>
        e.name !== undefined &&
        (by === 'slug' || e.name.toLowerCase().startsWith(lower)) &&
        (!filter.blueprint_slug || e.blueprint_slug === filter.blueprint_slug) &&
        !filter.skip?.({ name: e.name });
      const kept: { at: Item; pointer: EntityPointer }[] = [];
      const states = new Map<string, EntityState>();
      let examined = 0;
      let last: Item | undefined;
      let cursor = page.cursor ? await openPageCursor(deps.cursors, page.cursor, source) : undefined;
      do {
        const want = Math.min(MAX_QUERY_LIMIT, EXAMINE_LIMIT - examined, page.limit + 1 - kept.length);
        const read = await readEntityListChunk(deps.table, source, { limit: want, cursor });
        const chunk = read.items.map((at) => ({ at, pointer: parseEntityPointer(at) }));
        const passing = chunk.filter((entry) => matches(entry.pointer));
        // A state filter needs the states of what passes now; without one, only the page's are read.
        if (filter.state) {
          const found = await statesOf(
            tenantId,
            passing.map((entry) => entry.pointer),
          );
          for (const [id, state] of found) states.set(id, state);
        }
        const keep = new Set(
          passing.filter((e) => !filter.state || states.get(e.pointer.id)?.state === filter.state),
        );
        for (const entry of chunk) {
          examined += 1;
          if (keep.has(entry)) kept.push(entry);
          // The page ends after its last entity, or after the last entry examined when the bound ends it.
          if (kept.length <= page.limit) last = entry.at;
          if (kept.length > page.limit) break;
        }
        cursor = read.cursor;
      } while (cursor && kept.length <= page.limit && examined < EXAMINE_LIMIT);
      const shown = kept.slice(0, page.limit);
      if (!filter.state) {
        for (const [id, state] of await statesOf(
          tenantId,
          shown.map((entry) => entry.pointer),
        ))
          states.set(id, state);
      }
      const more = kept.length > page.limit || (cursor !== undefined && examined >= EXAMINE_LIMIT);
      return {
        // An entity deleted (or renamed off the prefix) since its index entry was read is left out.
        entities: shown.flatMap(({ pointer }) => {
          const entity = states.get(pointer.id);
          const current = entity && matches(entity) && (!filter.state || entity.state === filter.state);
          return current ? [entity] : [];
        }),
        next_cursor: more && last ? await sealPageCursor(deps.cursors, last, source) : null,
      };
    },
  };
}

export type EntitySearch = ReturnType<typeof createEntitySearch>;
