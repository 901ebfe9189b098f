import type { PurgeRound } from '../../purge/purge-consumer.ts';
import { type EntityPurgeJob, partitionPurgeJobOp } from '../../purge/purge-job-items.ts';
import { checkPartition } from '../../store/partitions.ts';
import type { Table, WriteOp } from '../../store/table.ts';
import { leaveCells } from '../cells/cell-membership.ts';
import { cellPlacesOf, definitionDeletedOp, entityCheckIds } from '../check-items.ts';
import { stateDeletedOp } from '../items/check-state-items.ts';

/** Checks read per round (3 writes each: the deletes of its definition and state, and its partition job). */
const CHECKS_PER_ROUND = 100;

/**
 * The checks engine's step of an entity purge (lib/purge): deletes the next checks of the deleted
 * entity (definition and state items), each with a partition job for everything under its
 * `CHECK#<chk_id>` partition (results, transitions, policy, channels, ping URLs). Pull checks
 * leave their cells first (a repeated round finds them gone and skips them), so a cell never keeps
 * a member whose definition is deleted.
 */
export async function purgeEntityChecks(table: Table, job: EntityPurgeJob): Promise<PurgeRound> {
  const checks = await entityCheckIds(table, job.tenant_id, job.entity_id, CHECKS_PER_ROUND);
  await leaveCells(table, await cellPlacesOf(table, job.tenant_id, checks.ids));
  const ops = checks.ids.flatMap((checkId) => [
    definitionDeletedOp(job.tenant_id, checkId),
    stateDeletedOp(job.tenant_id, checkId),
    partitionPurgeJobOp(job.tenant_id, checkPartition(checkId)),
  ]);
  return { ops, more: checks.more };
}

/** The purge job of a deleted check's partition (in the check delete's transaction). */
export function checkPartitionPurgeOp(tenantId: string, checkId: string): WriteOp {
  return partitionPurgeJobOp(tenantId, checkPartition(checkId));
}
