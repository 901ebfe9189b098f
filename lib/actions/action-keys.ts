import { itemType } from '../store/item-type.ts';
import { tenantPk } from '../store/partitions.ts';

/**
 * Keys of the action items; see docs/data-model.md. An action lives in its tenant's partition
 * (listed by `ACTION#`), indexed by its check (gsi1, state_change actions) and, while scheduled,
 * in the actions' own due index (gsi2, sharded like the checks' and claimed the same way). Each
 * execution is a partition of its own (the record and its log lines), listed per action on gsi1
 * and deleted with the action by a purge job in bounded rounds.
 */

export const ACTION_PREFIX = 'ACTION#';
export const LOG_PREFIX = 'LOG#';

/** gsi1 partition of the state_change actions of a check (gsi1sk: the action id). */
export const checkActionsPk = (checkId: string) => `CHKACT#${checkId}`;
/** gsi1 partition of an action's executions, newest first by id (gsi1sk: the execution id). */
export const actionExecutionsPk = (actionId: string) => `ACTEXE#${actionId}`;
/** gsi2 partition of scheduled actions due, sharded; sort key `<next_run_at>#<act_id>`. */
export const actionDuePk = (shard: number) => `ACTDUE#${shard}`;
export const actionDueSk = (nextRunAt: string, actionId: string) => `${nextRunAt}#${actionId}`;
/** An execution's partition: its record and its log lines. */
export const executionPartition = (executionId: string) => `EXEC#${executionId}`;

/** Log line sort keys keep report order: LOG#000001 .. LOG#001000. */
export const logLineSk = (seq: number) => `${LOG_PREFIX}${String(seq).padStart(6, '0')}`;

export const actionKeys = {
  action: (tenantId: string, actionId: string) => ({
    pk: tenantPk(tenantId),
    sk: `${ACTION_PREFIX}${actionId}`,
  }),
  /** The tenant's action counter (the limit of 50 holds under concurrent creates). */
  actionCount: (tenantId: string) => ({ pk: tenantPk(tenantId), sk: 'ACTIONCOUNT' }),
  execution: (executionId: string) => ({ pk: executionPartition(executionId), sk: 'EXEC' }),
  /** Who is sending an execution right now (a lease), so two deliveries of one run send once. */
  reservation: (executionId: string) => ({ pk: executionPartition(executionId), sk: 'SENDING' }),
  logLine: (executionId: string, seq: number) => ({
    pk: executionPartition(executionId),
    sk: logLineSk(seq),
  }),
};

/** The action item types: each item's `entity` and the version of its stored shape. */
export const actionTypes = {
  action: itemType('action'),
  actionCount: itemType('action_count'),
  execution: itemType('execution'),
  reservation: itemType('execution_reservation'),
  logLine: itemType('execution_log'),
};
