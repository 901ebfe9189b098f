import { z } from 'zod';
import type { PurgeRound } from '../purge/purge-consumer.ts';
import { type EntityPurgeJob, partitionPurgeJobOp } from '../purge/purge-job-items.ts';
import { parseItem } from '../store/items.ts';
import { checkPartition, tenantPk } from '../store/partitions.ts';
import type { Table, WriteOp } from '../store/table.ts';
import { checkKeys, entityChecksPk } from './check-keys.ts';

/** Checks read per round (3 writes each: the deletes of its definition and state, and its partition job). */
const CHECKS_PER_ROUND = 100;

const checkItemSchema = z.object({ pk: z.string(), sk: z.string(), gsi1sk: z.string() });

/**
 * The checks engine's step of an entity purge (lib/purge): deletes the next checks of the deleted
 * entity (definition and state items), each with a partition job for everything under its
 * `CHECK#<chk_id>` partition (results, transitions, policy, channels, ping URLs).
 */
export async function purgeEntityChecks(table: Table, job: EntityPurgeJob): Promise<PurgeRound> {
  const checks = await table.query({
    index: 'gsi1',
    pk: entityChecksPk(job.entity_id),
    limit: CHECKS_PER_ROUND,
  });
  const ops: WriteOp[] = [];
  for (const item of checks.items.filter((i) => i.pk === tenantPk(job.tenant_id))) {
    const check = parseItem(checkItemSchema, item);
    ops.push(
      { type: 'delete', key: { pk: check.pk, sk: check.sk } },
      { type: 'delete', key: checkKeys.state(job.tenant_id, check.gsi1sk) },
      partitionPurgeJobOp(job.tenant_id, checkPartition(check.gsi1sk)),
    );
  }
  return { ops, more: checks.cursor !== undefined };
}

/** The purge job of a deleted check's partition (in the check delete's transaction). */
export function checkPartitionPurgeOp(tenantId: string, checkId: string): WriteOp {
  return partitionPurgeJobOp(tenantId, checkPartition(checkId));
}
