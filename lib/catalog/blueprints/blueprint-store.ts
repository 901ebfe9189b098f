import { SLUG } from '../../domain/formats.ts';
import { NotFoundError } from '../../platform/errors.ts';
import type { Table } from '../../store/table.ts';
import { type BlueprintRecord, getBlueprint, listBlueprints } from './blueprint-items.ts';

/** Reads of blueprints (consistent), bound to a table. */
export function createBlueprintStore(table: Table) {
  const get = async (tenantId: string, slug: string): Promise<BlueprintRecord | undefined> =>
    SLUG.test(slug) ? getBlueprint(table, tenantId, slug) : undefined;

  return {
    get,

    /** The blueprint, or 404 NOT_FOUND. */
    async require(tenantId: string, slug: string): Promise<BlueprintRecord> {
      const bp = await get(tenantId, slug);
      if (!bp) throw new NotFoundError('blueprint');
      return bp;
    },

    list: (tenantId: string) => listBlueprints(table, tenantId),
  };
}

export type BlueprintStore = ReturnType<typeof createBlueprintStore>;
