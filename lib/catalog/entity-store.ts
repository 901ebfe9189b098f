import { SLUG } from '../domain/slug.ts';
import { isId } from '../platform/ids.ts';
import { parseItem, queryAll } from '../store/items.ts';
import { tenantPk } from '../store/partitions.ts';
import type { Table } from '../store/table.ts';
import { catalogKeys, entityPrefix } from './catalog-keys.ts';
import { type EntityRecord, entityPointerSchema, entitySchema } from './records.ts';

/** Reads of entities (consistent). The checks engine uses `getById`. */
export function createEntityStore(table: Table) {
  const get = async (
    tenantId: string,
    blueprintSlug: string,
    slug: string,
  ): Promise<EntityRecord | undefined> => {
    if (!SLUG.test(blueprintSlug) || !SLUG.test(slug)) return undefined;
    const item = await table.get(catalogKeys.entity(tenantId, blueprintSlug, slug), { consistent: true });
    return item ? parseItem(entitySchema, item) : undefined;
  };

  return {
    get,

    /** The entity with this id in this tenant (id pointer, then record), or undefined. */
    async getById(tenantId: string, entityId: string): Promise<EntityRecord | undefined> {
      if (!isId('ent', entityId)) return undefined;
      const pointer = await table.get(catalogKeys.entityId(tenantId, entityId), { consistent: true });
      if (!pointer) return undefined;
      const { blueprint_slug, slug } = parseItem(entityPointerSchema, pointer);
      const entity = await get(tenantId, blueprint_slug, slug);
      return entity?.id === entityId ? entity : undefined;
    },

    /** Entities of one blueprint, by slug. */
    async list(tenantId: string, blueprintSlug: string): Promise<EntityRecord[]> {
      const items = await queryAll((cursor) =>
        table.query({
          pk: tenantPk(tenantId),
          sk: { op: 'beginsWith', prefix: entityPrefix(blueprintSlug) },
          cursor,
          consistent: true,
        }),
      );
      return items.map((item) => parseItem(entitySchema, item));
    },

    /** Which of `entityIds` still exist in this tenant (id pointers, read in batches of 100). */
    async existing(tenantId: string, entityIds: readonly string[]): Promise<Set<string>> {
      const unique = [...new Set(entityIds)];
      const found = new Set<string>();
      for (let i = 0; i < unique.length; i += 100) {
        const keys = unique.slice(i, i + 100).map((id) => catalogKeys.entityId(tenantId, id));
        for (const item of await table.batchGet(keys)) found.add(parseItem(entityPointerSchema, item).id);
      }
      return found;
    },
  };
}

export type EntityStore = ReturnType<typeof createEntityStore>;
