import { ValidationError } from '../../platform/errors.ts';
import type { Table } from '../../store/table.ts';
import {
  existingEntityIds,
  getEntity,
  getEntityById,
  listEntities,
  readEntityPointers,
} from './entity-items.ts';

/** Reads of entities (consistent), bound to a table. The checks engine uses `getById` and `existing`. */
export function createEntityStore(table: Table) {
  return {
    get: (tenantId: string, blueprintSlug: string, slug: string) =>
      getEntity(table, tenantId, blueprintSlug, slug),

    /** The entity with this id in this tenant (id pointer, then record), or undefined. */
    getById: (tenantId: string, entityId: string) => getEntityById(table, tenantId, entityId),

    /** Entities of one blueprint, by slug. */
    list: (tenantId: string, blueprintSlug: string) => listEntities(table, tenantId, blueprintSlug),

    /** Which of `entityIds` still exist in this tenant (id pointers, read in batches of 100). */
    existing: (tenantId: string, entityIds: readonly string[]) =>
      existingEntityIds(table, tenantId, entityIds),

    /** The names of those of `entityIds` that still exist in this tenant (a pointer without one: its slug). */
    names: async (tenantId: string, entityIds: readonly string[]): Promise<Map<string, string>> =>
      new Map((await readEntityPointers(table, tenantId, entityIds)).map((p) => [p.id, p.name ?? p.slug])),
  };
}

export type EntityStore = ReturnType<typeof createEntityStore>;

/**
 * Refuses (400, each unknown id at `entity_ids.<i>`) a list of entities that are not all the
 * tenant's: another tenant's id is as unknown as a made-up one.
 */
export async function requireTenantEntities(
  table: Table,
  tenantId: string,
  entityIds: string[],
): Promise<void> {
  const found = await existingEntityIds(table, tenantId, entityIds);
  const issues = entityIds
    .map((id, i) => ({ id, path: `entity_ids.${i}` }))
    .filter(({ id }) => !found.has(id))
    .map(({ id, path }) => ({ path, message: `no entity ${id}` }));
  if (issues.length > 0) throw new ValidationError('unknown entities', issues);
}
