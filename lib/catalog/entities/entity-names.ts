import * as z from 'zod';
import { idSchema } from '../../http/route-schemas.ts';
import type { Table } from '../../store/table.ts';
import { readEntityPointers } from './entity-items.ts';

/** An entity another object names, as that object's answer names it (its id pointer: name and address). */
export const namedEntitySchema = z
  .strictObject({
    id: idSchema('ent'),
    name: z.string(),
    blueprint_slug: z.string(),
    slug: z.string(),
  })
  .meta({ id: 'NamedEntity' });
export type NamedEntity = z.infer<typeof namedEntitySchema>;

/**
 * Names the entities a list of objects names: ONE batch read of the id pointers of every id the
 * objects name (batches of 100, never one read per object), all in the caller's tenant, so another
 * tenant's entity is never named. The returned function gives an object's `entities`: its ids in
 * order, a deleted entity left out.
 */
export async function entityNamer(
  table: Table,
  tenantId: string,
  ids: readonly string[],
): Promise<(entityIds: readonly string[]) => NamedEntity[]> {
  const pointers = ids.length > 0 ? await readEntityPointers(table, tenantId, ids) : [];
  const byId = new Map(pointers.map((p) => [p.id, p]));
  return (entityIds) =>
    entityIds.flatMap((id) => {
      const p = byId.get(id);
      return p ? [{ id, name: p.name ?? p.slug, blueprint_slug: p.blueprint_slug, slug: p.slug }] : [];
    });
}
