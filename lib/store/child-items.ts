import type { ItemDefinition } from './item-definition.ts';
import { queryAll } from './items.ts';
import { tenantPk } from './partitions.ts';
import type { Item, Table, WriteOp } from './table.ts';

/** Where a parent's items sit: the key of one, and the sort-key prefix all of a parent's share. */
interface ChildPlacement<K> {
  key(tenantId: string, parent: string, id: string): K;
  prefix(parent: string): string;
}

/**
 * The reads and writes shared by owners of items a parent holds in the tenant partition under the
 * parent's prefix (a status page's written incidents, its subscribers): each carries a `version`
 * every write bumps, and goes with the parent when the parent is deleted.
 */
export function childItems<R extends { id: string }, K>(item: ItemDefinition<R, K>, at: ChildPlacement<K>) {
  return {
    /** One item of the tenant's parent (consistent), or undefined. */
    get: (table: Table, tenantId: string, parent: string, id: string): Promise<R | undefined> =>
      item.get(table, at.key(tenantId, parent, id), { consistent: true }),
    /** The put of a new item (`itemNotExists`). */
    createdOp: (record: R): WriteOp => item.put(record, { kind: 'itemNotExists' }),
    /** The put of a changed item over the version `readVersion` it was read at. */
    replacedOp: (record: R, readVersion: number): WriteOp =>
      item.put(record, { kind: 'compare', attr: 'version', op: '=', value: readVersion }),
    /** The delete of one item (`itemExists`). */
    deletedOp: (tenantId: string, parent: string, id: string): WriteOp =>
      item.delete(at.key(tenantId, parent, id), { kind: 'itemExists' }),
    /** The deletes of up to `max` items of a parent (the parent's delete takes them with it). */
    async parentDeletedOps(table: Table, tenantId: string, parent: string, max: number): Promise<WriteOp[]> {
      const result = await table.query({
        pk: tenantPk(tenantId),
        sk: { op: 'beginsWith', prefix: at.prefix(parent) },
        consistent: true,
        limit: max,
      });
      return item.parseAll(result.items).map((r) => item.delete(at.key(tenantId, parent, r.id)));
    },
    /** The item of a change-feed image, or undefined for another item type. */
    ofImage: (image: Item | undefined): R | undefined =>
      image && item.is(image) ? item.parse(image) : undefined,
  };
}

/**
 * The reads and writes shared by owners of items kept one per id in the tenant partition under a
 * sort-key prefix (on-call schedules, teams, calendar feeds): a consistent get, every item of the
 * tenant (bounded: twice the per-tenant limit), and versioned puts and deletes.
 */
export function tenantItems<R, K>(
  item: ItemDefinition<R, K>,
  at: { key(tenantId: string, id: string): K; prefix: string; maxPerTenant: number },
) {
  return {
    /** One item of the tenant (consistent), or undefined. */
    get: (table: Table, tenantId: string, id: string): Promise<R | undefined> =>
      item.get(table, at.key(tenantId, id), { consistent: true }),
    /** Every item of the tenant, oldest first when ids are time-ordered. */
    async list(table: Table, tenantId: string): Promise<R[]> {
      const items = await queryAll(
        (cursor) =>
          table.query({
            pk: tenantPk(tenantId),
            sk: { op: 'beginsWith', prefix: at.prefix },
            consistent: true,
            cursor,
          }),
        at.maxPerTenant * 2,
      );
      return item.parseAll(items);
    },
    /** The put of a new item (`itemNotExists`). */
    createdOp: (record: R): WriteOp => item.put(record, { kind: 'itemNotExists' }),
    /** The put of a changed item over the version `readVersion` it was read at. */
    replacedOp: (record: R, readVersion: number): WriteOp =>
      item.put(record, { kind: 'compare', attr: 'version', op: '=', value: readVersion }),
    /** The delete of one item (`itemExists`: one already gone fails the condition). */
    deletedOp: (tenantId: string, id: string): WriteOp =>
      item.delete(at.key(tenantId, id), { kind: 'itemExists' }),
  };
}
