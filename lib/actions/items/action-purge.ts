import type { PurgeRound } from '../../purge/purge-consumer.ts';
import { type ActionPurgeJob, partitionPurgeJobOp } from '../../purge/purge-job-items.ts';
import type { Table } from '../../store/table.ts';
import { actionExecutionsPage, executionDeletedOp, executionPartition } from './execution-items.ts';

/** Executions read per round (2 writes each: the delete of its record and its partition job). */
const EXECUTIONS_PER_ROUND = 100;

/**
 * The actions' step of an action purge (lib/purge): deletes the next executions of the deleted
 * action (found on gsi1), each with a partition job for its log lines.
 */
export async function purgeActionExecutions(table: Table, job: ActionPurgeJob): Promise<PurgeRound> {
  const page = await actionExecutionsPage(table, job.action_id, EXECUTIONS_PER_ROUND);
  const ops = page.executions
    .filter((execution) => execution.tenant_id === job.tenant_id)
    .flatMap((execution) => [
      executionDeletedOp(execution.id),
      partitionPurgeJobOp(job.tenant_id, executionPartition(execution.id)),
    ]);
  return { ops, more: page.more };
}
