import { actionPurgeJobOp } from '../../purge/purge-job-items.ts';
import { transactIf } from '../../store/items.ts';
import { ConditionFailedError, type Table } from '../../store/table.ts';
import {
  type ActionRecord,
  actionCreatedOps,
  actionRemovedOps,
  actionReplacedOp,
  type DueIndex,
  getAction,
  listActions,
  listActionsOfCheck,
} from './action-items.ts';
import { triggerIndexOf } from './trigger-index.ts';

/** What the action store needs besides the table: the due index's shard count (config.dueShards). */
export type ActionStoreOptions = DueIndex;

/**
 * The tenant's actions (action-items.ts): one item each in the tenant's partition, with a counter
 * item that keeps the limit of 50 under concurrent creates. Deleting an action writes a purge job
 * that removes its executions in bounded rounds (lib/catalog/purge.ts).
 */
export function createActionStore(table: Table, options: ActionStoreOptions) {
  const due: DueIndex = { dueShards: options.dueShards };
  // This process's trigger consumer reads the tenant's actions again after any write of one.
  const index = triggerIndexOf(table);

  return {
    /** Stores a new action; 'limit' when the tenant already has ACTION_LIMITS.actionsPerTenant. */
    async create(action: ActionRecord): Promise<'limit' | undefined> {
      try {
        await table.transact(actionCreatedOps(action, due));
        index.forget(action.tenant_id);
        return undefined;
      } catch (error) {
        if (!(error instanceof ConditionFailedError)) throw error;
        if (error.failed.includes(0)) return 'limit';
        throw error;
      }
    },

    /** One action of the tenant, or undefined. */
    get: (tenantId: string, actionId: string): Promise<ActionRecord | undefined> =>
      getAction(table, tenantId, actionId),

    /** Every action of the tenant (at most 50), oldest first. */
    list: (tenantId: string): Promise<ActionRecord[]> => listActions(table, tenantId),

    /** The state_change actions attached to a check (gsi1, eventually consistent), any tenant's. */
    listForCheck: (checkId: string): Promise<ActionRecord[]> => listActionsOfCheck(table, checkId),

    /**
     * Replaces an action while its stored version is `expectedVersion` (the record carries the
     * next version); false when it changed meanwhile or is gone.
     */
    async update(action: ActionRecord, expectedVersion: number): Promise<boolean> {
      const updated = await transactIf(table, [actionReplacedOp(action, expectedVersion, due)]);
      index.forget(action.tenant_id);
      return updated;
    },

    /** Deletes an action, counts it off and starts the purge of its executions; false when it is gone. */
    async remove(tenantId: string, actionId: string): Promise<boolean> {
      const removed = await transactIf(table, [
        ...actionRemovedOps(tenantId, actionId),
        actionPurgeJobOp(tenantId, actionId),
      ]);
      index.forget(tenantId);
      return removed;
    },
  };
}

export type ActionStore = ReturnType<typeof createActionStore>;
