import type { Table, WriteOp } from './table.ts';

/**
 * One round of emptying a whole partition, whatever its items' owners (a check's partition holds
 * the checks engine's, notify's and push's items): the deletes of its next `limit` items, by the
 * keys read from them. It builds no item's key, so it lives with the store rather than any owner.
 */
export async function partitionDeletes(
  table: Table,
  partition: string,
  limit: number,
): Promise<{ ops: WriteOp[]; more: boolean }> {
  const page = await table.query({ pk: partition, limit, consistent: true });
  const ops: WriteOp[] = page.items.map((item) => ({ type: 'delete', key: { pk: item.pk, sk: item.sk } }));
  return { ops, more: page.cursor !== undefined };
}
