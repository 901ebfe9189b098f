import { SLUG } from '../domain/slug.ts';
import { NotFoundError } from '../platform/errors.ts';
import { parseItem, queryAll } from '../store/items.ts';
import { tenantPk } from '../store/partitions.ts';
import type { Table, WriteOp } from '../store/table.ts';
import { BLUEPRINT_PREFIX, catalogKeys } from './catalog-keys.ts';
import { type BlueprintRecord, blueprintSchema } from './records.ts';

/** The write that takes the default flag off a blueprint whose tenant default moves elsewhere. */
export function clearDefaultFlag(tenantId: string, slug: string): WriteOp {
  return {
    type: 'update',
    key: catalogKeys.blueprint(tenantId, slug),
    set: { is_default: false },
    condition: { kind: 'itemExists' },
  };
}

/** Reads of blueprints (consistent). */
export function createBlueprintStore(table: Table) {
  const get = async (tenantId: string, slug: string): Promise<BlueprintRecord | undefined> => {
    if (!SLUG.test(slug)) return undefined;
    const item = await table.get(catalogKeys.blueprint(tenantId, slug), { consistent: true });
    return item ? parseItem(blueprintSchema, item) : undefined;
  };

  return {
    get,

    /** The blueprint, or 404 NOT_FOUND. */
    async require(tenantId: string, slug: string): Promise<BlueprintRecord> {
      const bp = await get(tenantId, slug);
      if (!bp) throw new NotFoundError('blueprint');
      return bp;
    },

    async list(tenantId: string): Promise<BlueprintRecord[]> {
      const items = await queryAll((cursor) =>
        table.query({
          pk: tenantPk(tenantId),
          sk: { op: 'beginsWith', prefix: BLUEPRINT_PREFIX },
          cursor,
          consistent: true,
        }),
      );
      return items.map((item) => parseItem(blueprintSchema, item));
    },
  };
}

export type BlueprintStore = ReturnType<typeof createBlueprintStore>;
