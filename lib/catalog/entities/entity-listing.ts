import * as z from 'zod';
import { ValidationError } from '../../platform/errors.ts';
import type { CursorSeal } from '../../store/cursor-seal.ts';
import { openPageCursor, sealPageCursor } from '../../store/paging.ts';
import type { Table } from '../../store/table.ts';
import type { BlueprintStore } from '../blueprints/blueprint-store.ts';
import {
  type EntityRecord,
  entityListSource,
  entitySchema,
  readEntityItems,
  readEntityListChunk,
} from './entity-items.ts';
import type { EntitySearch } from './entity-search.ts';
import { entityViews, type MaintenanceOf } from './entity-views.ts';

/**
 * GET /v1/entities: the tenant's entities a page at a time, of one blueprint or all, optionally
 * those whose name or slug starts with a text (case-insensitive). Without a text it reads the
 * entity items in key order (blueprint, slug); with one, the search indexes of entity-search.ts
 * (names from the text on, then slugs, an entity found by its name not repeated), and then the
 * page's entity items. Never more than a page (and the search's bounded examination) per call.
 */

export const ENTITY_PAGE_MAX = 200;

export interface EntityListFilter {
  q?: string | undefined;
  blueprint_slug?: string | undefined;
  limit: number;
  cursor?: string | undefined;
}

// A text search's cursor: which index list it stopped in (0 names, 1 slugs) and that list's sealed cursor.
const listCursorSchema = z.object({ l: z.union([z.literal(0), z.literal(1)]), c: z.string().max(2048) });
const encode = (at: z.infer<typeof listCursorSchema>) =>
  Buffer.from(JSON.stringify(at)).toString('base64url');
function decode(cursor: string) {
  try {
    return listCursorSchema.parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
  } catch (err) {
    throw new ValidationError(
      'invalid cursor',
      [{ path: 'cursor', message: 'is not a cursor of this list' }],
      err,
    );
  }
}

export interface EntityListingDeps {
  table: Table;
  cursors: CursorSeal;
  blueprints: BlueprintStore;
  search: EntitySearch;
  maintenance?: MaintenanceOf | undefined;
}

/** The paged, filtered entity list (see the module comment). */
export function createEntityListing(deps: EntityListingDeps) {
  const { table, cursors, blueprints, search } = deps;

  /** The entities as returned, each viewed with its own blueprint's field definitions. */
  const viewed = async (tenantId: string, records: EntityRecord[]) => {
    const slugs = [...new Set(records.map((e) => e.blueprint_slug))];
    const bps = new Map(
      (await Promise.all(slugs.map((slug) => blueprints.get(tenantId, slug)))).flatMap((bp) =>
        bp ? [[bp.slug, bp] as const] : [],
      ),
    );
    const out = await Promise.all(
      slugs.map(async (slug) => {
        const bp = bps.get(slug);
        const mine = records.filter((e) => e.blueprint_slug === slug);
        return bp ? entityViews(deps.maintenance, tenantId, bp, mine) : [];
      }),
    );
    const byId = new Map(out.flat().map((e) => [e.id, e]));
    return records.flatMap((e) => byId.get(e.id) ?? []);
  };

  /** A page of the entity items in key order (no text). */
  const inKeyOrder = async (tenantId: string, filter: EntityListFilter) => {
    const source = entityListSource(tenantId, filter.blueprint_slug);
    const cursor = filter.cursor ? await openPageCursor(cursors, filter.cursor, source) : undefined;
    const read = await readEntityListChunk(table, source, { limit: filter.limit + 1, cursor });
    const items = read.items.slice(0, filter.limit);
    const last = items.at(-1);
    const more = (read.items.length > filter.limit || read.cursor !== undefined) && last !== undefined;
    return {
      records: items.map((item) => entitySchema.parse(item)),
      next_cursor: more ? await sealPageCursor(cursors, last, source) : null,
    };
  };

  /** A page of the text search: names from the text on, then slugs. */
  const byText = async (tenantId: string, q: string, filter: EntityListFilter) => {
    const lower = q.toLowerCase();
    const byName = (e: { name: string }) => e.name.toLowerCase().startsWith(lower);
    let at = filter.cursor ? decode(filter.cursor) : { l: 0 as const, c: '' };
    const found: { blueprint_slug: string; slug: string }[] = [];
    let next: string | null = null;
    while (found.length < filter.limit) {
      const page = await search.page(
        tenantId,
        at.l === 0 ? 'name' : 'slug',
        lower,
        { blueprint_slug: filter.blueprint_slug, ...(at.l === 1 ? { skip: byName } : {}) },
        { limit: filter.limit - found.length, ...(at.c ? { cursor: at.c } : {}) },
      );
      found.push(...page.entities);
      if (page.next_cursor) {
        next = encode({ l: at.l, c: page.next_cursor });
        break;
      }
      if (at.l === 1) break;
      at = { l: 1, c: '' };
      // The name list is done: the slugs follow on this page, or on the next when it is full.
      if (found.length >= filter.limit) next = encode(at);
    }
    const items = found.length > 0 ? await readEntityItems(table, tenantId, found) : [];
    const byRef = new Map(
      items.map((item) => [`${item.blueprint_slug}/${item.slug}`, entitySchema.parse(item)]),
    );
    return {
      records: found.flatMap((ref) => byRef.get(`${ref.blueprint_slug}/${ref.slug}`) ?? []),
      next_cursor: next,
    };
  };

  return {
    async list(tenantId: string, filter: EntityListFilter) {
      if (filter.blueprint_slug) await blueprints.require(tenantId, filter.blueprint_slug);
      const q = filter.q?.trim();
      const page = q ? await byText(tenantId, q, filter) : await inKeyOrder(tenantId, filter);
      return { entities: await viewed(tenantId, page.records), next_cursor: page.next_cursor };
    },
  };
}

export type EntityListing = ReturnType<typeof createEntityListing>;
