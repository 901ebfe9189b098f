import { readEntityPointers } from '../catalog/entities.ts';
import type { Table } from '../store/table.ts';

/** Where an entity's console page is: its blueprint's slug and its own. */
export interface EntityAddress {
  blueprint_slug: string;
  slug: string;
}

/**
 * The addresses of these entities that still exist in the tenant, by id: incidents keep the
 * entity's id and name, and a link to its page needs the slugs (one batch read of the id pointers
 * per page of incidents, never the tenant's whole catalog).
 */
export async function entityAddresses(
  table: Table,
  tenantId: string,
  entityIds: readonly string[],
): Promise<Map<string, EntityAddress>> {
  if (entityIds.length === 0) return new Map();
  const pointers = await readEntityPointers(table, tenantId, entityIds);
  return new Map(pointers.map((p) => [p.id, { blueprint_slug: p.blueprint_slug, slug: p.slug }]));
}
