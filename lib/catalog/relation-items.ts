import { z } from 'zod';
import { stamp } from '../store/item-type.ts';
import { parseItem, queryAll } from '../store/items.ts';
import { tenantPk } from '../store/partitions.ts';
import type { Item, Table, WriteOp } from '../store/table.ts';
import {
  catalogKeys,
  catalogTypes,
  dependencyPrefix,
  entityRelationsPk,
  RELATION_PREFIX,
} from './catalog-keys.ts';
import { type RelationRecord, relationSchema } from './records.ts';

/** A relation's items: the record (indexed by both ends), its uniqueness item and, for depends_on, its adjacency item. */

/** The puts that create a relation; the uniqueness item makes a duplicate fail its condition (op 1). */
export function newRelationOps(tenantId: string, rel: RelationRecord): WriteOp[] {
  const ops: WriteOp[] = [
    {
      type: 'put',
      item: {
        ...catalogKeys.relation(tenantId, rel.id),
        ...stamp(catalogTypes.relation),
        gsi1pk: entityRelationsPk(rel.from_entity_id),
        gsi1sk: `REL#${rel.id}`,
        gsi2pk: entityRelationsPk(rel.to_entity_id),
        gsi2sk: `REL#${rel.id}`,
        version: 1,
        ...rel,
      },
      condition: { kind: 'itemNotExists' },
    },
    {
      type: 'put',
      item: {
        ...catalogKeys.relationKey(tenantId, rel.from_entity_id, rel.relation_type, rel.to_entity_id),
        ...stamp(catalogTypes.relationKey),
        relation_id: rel.id,
      },
      condition: { kind: 'itemNotExists' },
    },
  ];
  if (rel.relation_type === 'depends_on') {
    ops.push({
      type: 'put',
      item: {
        ...catalogKeys.dependency(tenantId, rel.from_entity_id, rel.to_entity_id),
        ...stamp(catalogTypes.dependency),
        relation_id: rel.id,
        from_entity_id: rel.from_entity_id,
        to_entity_id: rel.to_entity_id,
      },
    });
  }
  return ops;
}

/** The deletes that remove a relation and its helper items. */
export function deleteRelationOps(tenantId: string, rel: RelationRecord): WriteOp[] {
  const ops: WriteOp[] = [
    { type: 'delete', key: catalogKeys.relation(tenantId, rel.id) },
    {
      type: 'delete',
      key: catalogKeys.relationKey(tenantId, rel.from_entity_id, rel.relation_type, rel.to_entity_id),
    },
  ];
  if (rel.relation_type === 'depends_on') {
    ops.push({ type: 'delete', key: catalogKeys.dependency(tenantId, rel.from_entity_id, rel.to_entity_id) });
  }
  return ops;
}

const dependencySchema = z.object({ to_entity_id: z.string() });

/** Reads of relations and of the depends_on adjacency items. */
export function createRelationStore(table: Table) {
  const parseAll = (items: Item[]) => items.map((item) => parseItem(relationSchema, item));
  return {
    async get(tenantId: string, relationId: string): Promise<RelationRecord | undefined> {
      const item = await table.get(catalogKeys.relation(tenantId, relationId), { consistent: true });
      return item ? parseItem(relationSchema, item) : undefined;
    },

    async list(tenantId: string): Promise<RelationRecord[]> {
      const items = await queryAll((cursor) =>
        table.query({
          pk: tenantPk(tenantId),
          sk: { op: 'beginsWith', prefix: RELATION_PREFIX },
          cursor,
          consistent: true,
        }),
      );
      return parseAll(items);
    },

    /** Relations from or to one entity (gsi1 and gsi2), restricted to the tenant's partition. */
    async ofEntity(tenantId: string, entityId: string): Promise<RelationRecord[]> {
      const byIndex = await Promise.all(
        (['gsi1', 'gsi2'] as const).map((index) =>
          queryAll((cursor) => table.query({ index, pk: entityRelationsPk(entityId), cursor })),
        ),
      );
      const mine = byIndex.flat().filter((item) => item.pk === tenantPk(tenantId));
      return [...new Map(parseAll(mine).map((rel) => [rel.id, rel])).values()];
    },

    /** The entities `entityId` depends on directly (consistent read of its adjacency items). */
    async dependenciesOf(tenantId: string, entityId: string): Promise<string[]> {
      const items = await queryAll((cursor) =>
        table.query({
          pk: tenantPk(tenantId),
          sk: { op: 'beginsWith', prefix: dependencyPrefix(entityId) },
          cursor,
          consistent: true,
        }),
      );
      return items.map((item) => parseItem(dependencySchema, item).to_entity_id);
    },
  };
}

export type RelationStore = ReturnType<typeof createRelationStore>;
