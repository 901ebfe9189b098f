import { shardOf } from '../domain/schedule.ts';
import { actionPurgeJobOp } from '../purge/purge-job-items.ts';
import { belowLimit } from '../store/conditions.ts';
import { stamp } from '../store/item-type.ts';
import { parseItem, queryAll } from '../store/items.ts';
import { tenantPk } from '../store/partitions.ts';
import { ConditionFailedError, type Item, type NewItem, type Table, type UpdateOp } from '../store/table.ts';
import {
  ACTION_PREFIX,
  actionDuePk,
  actionDueSk,
  actionKeys,
  actionTypes,
  checkActionsPk,
} from './action-keys.ts';
import { ACTION_LIMITS, type ActionRecord, actionSchema } from './records.ts';

/** What the action store needs besides the table: the due index's shard count (config.dueShards). */
export interface ActionStoreOptions {
  dueShards: number;
}

/** The index attributes of an action: gsi1 by its check (state_change), gsi2 in the due index (schedule). */
function actionIndexes(action: ActionRecord, dueShards: number) {
  return {
    ...(action.trigger_type === 'state_change' && action.check_id
      ? { gsi1pk: checkActionsPk(action.check_id), gsi1sk: action.id }
      : {}),
    ...(action.trigger_type === 'schedule' && action.next_run_at
      ? {
          gsi2pk: actionDuePk(shardOf(action.id, dueShards)),
          gsi2sk: actionDueSk(action.next_run_at, action.id),
        }
      : {}),
  };
}

/** The stored item of an action: the whole record in the tenant's partition with its index keys. */
export function actionItem(action: ActionRecord, dueShards: number): NewItem {
  return {
    ...actionKeys.action(action.tenant_id, action.id),
    ...stamp(actionTypes.action),
    ...actionIndexes(action, dueShards),
    ...action,
  };
}

/**
 * The update that moves a schedule action to `nextRunAt` (its due-index entry with it) while its
 * version is still `action.version`: a claim of a slot that someone else claimed, or of an action
 * edited meanwhile, fails its condition instead of running twice.
 */
export function scheduleClaimOp(
  action: ActionRecord,
  nextRunAt: string,
  dueShards: number,
  nowIso: string,
): UpdateOp {
  return {
    type: 'update',
    key: actionKeys.action(action.tenant_id, action.id),
    set: {
      next_run_at: nextRunAt,
      gsi2pk: actionDuePk(shardOf(action.id, dueShards)),
      gsi2sk: actionDueSk(nextRunAt, action.id),
      updated_at: nowIso,
    },
    add: { version: 1 },
    condition: { kind: 'compare', attr: 'version', op: '=', value: action.version },
  };
}

/**
 * The tenant's actions: one item each in the tenant's partition, with a counter item that keeps
 * the limit of 50 under concurrent creates. Deleting an action writes a purge job that removes its
 * executions in bounded rounds (lib/actions/action-purge.ts, run by lib/purge).
 */
export function createActionStore(table: Table, options: ActionStoreOptions) {
  const parse = (item: Item) => parseItem(actionSchema, item);

  return {
    /** Stores a new action; 'limit' when the tenant already has ACTION_LIMITS.actionsPerTenant. */
    async create(action: ActionRecord): Promise<'limit' | undefined> {
      try {
        await table.transact([
          {
            type: 'update',
            key: actionKeys.actionCount(action.tenant_id),
            set: { ...stamp(actionTypes.actionCount), tenant_id: action.tenant_id },
            add: { count: 1 },
            condition: belowLimit('count', ACTION_LIMITS.actionsPerTenant),
          },
          {
            type: 'put',
            item: actionItem(action, options.dueShards),
            condition: { kind: 'itemNotExists' },
          },
        ]);
        return undefined;
      } catch (error) {
        if (!(error instanceof ConditionFailedError)) throw error;
        if (error.failed.includes(0)) return 'limit';
        throw error;
      }
    },

    /** One action of the tenant, or undefined. */
    async get(tenantId: string, actionId: string): Promise<ActionRecord | undefined> {
      const item = await table.get(actionKeys.action(tenantId, actionId), { consistent: true });
      return item ? parse(item) : undefined;
    },

    /** Every action of the tenant (at most 50), oldest first. */
    async list(tenantId: string): Promise<ActionRecord[]> {
      const items = await queryAll(
        (cursor) =>
          table.query({
            pk: tenantPk(tenantId),
            sk: { op: 'beginsWith', prefix: ACTION_PREFIX },
            consistent: true,
            cursor,
          }),
        ACTION_LIMITS.actionsPerTenant * 2,
      );
      return items.map(parse);
    },

    /** The state_change actions attached to a check (gsi1, eventually consistent), any tenant's. */
    async listForCheck(checkId: string): Promise<ActionRecord[]> {
      const items = await queryAll((cursor) =>
        table.query({ index: 'gsi1', pk: checkActionsPk(checkId), cursor }),
      );
      return items.filter((item) => item.entity === actionTypes.action.entity).map(parse);
    },

    /**
     * Replaces an action while its stored version is `expectedVersion` (the record carries the
     * next version); false when it changed meanwhile or is gone.
     */
    async update(action: ActionRecord, expectedVersion: number): Promise<boolean> {
      try {
        await table.transact([
          {
            type: 'put',
            item: actionItem(action, options.dueShards),
            condition: { kind: 'compare', attr: 'version', op: '=', value: expectedVersion },
          },
        ]);
        return true;
      } catch (error) {
        if (error instanceof ConditionFailedError) return false;
        throw error;
      }
    },

    /** Deletes an action, counts it off and starts the purge of its executions; false when it is gone. */
    async remove(tenantId: string, actionId: string): Promise<boolean> {
      try {
        await table.transact([
          {
            type: 'delete',
            key: actionKeys.action(tenantId, actionId),
            condition: { kind: 'itemExists' },
          },
          {
            type: 'update',
            key: actionKeys.actionCount(tenantId),
            set: { ...stamp(actionTypes.actionCount), tenant_id: tenantId },
            add: { count: -1 },
          },
          actionPurgeJobOp(tenantId, actionId),
        ]);
        return true;
      } catch (error) {
        if (error instanceof ConditionFailedError) return false;
        throw error;
      }
    },
  };
}

export type ActionStore = ReturnType<typeof createActionStore>;
