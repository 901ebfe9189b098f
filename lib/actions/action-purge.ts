import type { PurgeRound } from '../purge/purge-consumer.ts';
import { type ActionPurgeJob, partitionPurgeJobOp } from '../purge/purge-job-items.ts';
import type { Table, WriteOp } from '../store/table.ts';
import { actionExecutionsPk, actionTypes, executionPartition } from './action-keys.ts';

/** Executions read per round (2 writes each: the delete of its record and its partition job). */
const EXECUTIONS_PER_ROUND = 100;

/**
 * The actions' step of an action purge (lib/purge): deletes the next executions of the deleted
 * action (found on gsi1), each with a partition job for its log lines.
 */
export async function purgeActionExecutions(table: Table, job: ActionPurgeJob): Promise<PurgeRound> {
  const page = await table.query({
    index: 'gsi1',
    pk: actionExecutionsPk(job.action_id),
    limit: EXECUTIONS_PER_ROUND,
  });
  const ops: WriteOp[] = [];
  for (const item of page.items) {
    if (item.entity !== actionTypes.execution.entity || item.tenant_id !== job.tenant_id) continue;
    ops.push(
      { type: 'delete', key: { pk: item.pk, sk: item.sk } },
      partitionPurgeJobOp(job.tenant_id, executionPartition(String(item.id))),
    );
  }
  return { ops, more: page.cursor !== undefined };
}
