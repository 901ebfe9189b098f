import type { Table, WriteOp } from '../store/table.ts';
import type { PurgeRound } from './purge-consumer.ts';
import type { PartitionPurgeJob } from './purge-job-items.ts';

/** Items of a partition deleted per round. */
const PARTITION_ITEMS_PER_ROUND = 500;

/**
 * The step of a partition job: deletes the next items of a whole partition, whatever their owners
 * (a check's partition holds the checks engine's, notify's and push's items). It builds no item's
 * key: it deletes the keys it reads.
 */
export async function purgePartition(table: Table, job: PartitionPurgeJob): Promise<PurgeRound> {
  const page = await table.query({ pk: job.partition, limit: PARTITION_ITEMS_PER_ROUND, consistent: true });
  const ops: WriteOp[] = page.items.map((item) => ({ type: 'delete', key: { pk: item.pk, sk: item.sk } }));
  return { ops, more: page.cursor !== undefined };
}
