import { checkKeys } from '../checks/check-keys.ts';
import { stamp } from '../store/item-type.ts';
import { parseItem } from '../store/items.ts';
import { ConditionFailedError, type Table } from '../store/table.ts';
import { notifyKeys, notifyTypes } from './notify-keys.ts';
import { type PolicyRecord, policySchema } from './records.ts';

/**
 * A check's notification policy: one item in the check's partition. Every write bumps `revision`
 * and holds only while the stored revision is still the one the writer read, so of two concurrent
 * writes one wins and the other reads again (a pending repeat of an older revision then stops).
 */
export function createPolicyStore(table: Table) {
  return {
    /** The check's stored policy, or undefined when none was ever written (the defaults apply). */
    async get(checkId: string): Promise<PolicyRecord | undefined> {
      const item = await table.get(notifyKeys.policy(checkId), { consistent: true });
      return item ? parseItem(policySchema, item) : undefined;
    },

    /**
     * Writes `record` as the next revision of the one it was read at (`record.revision`, 0 for a
     * check without a policy) while the check still exists; answers the stored record, or
     * undefined when another write (or the check's deletion) came first.
     */
    async put(record: PolicyRecord): Promise<PolicyRecord | undefined> {
      const next = { ...record, revision: record.revision + 1 };
      try {
        await table.transact([
          {
            type: 'put',
            item: { ...notifyKeys.policy(record.check_id), ...stamp(notifyTypes.policy), ...next },
            condition:
              record.revision === 0
                ? { kind: 'itemNotExists' }
                : { kind: 'compare', attr: 'revision', op: '=', value: record.revision },
          },
          {
            type: 'conditionCheck',
            key: checkKeys.check(record.tenant_id, record.check_id),
            condition: { kind: 'itemExists' },
          },
        ]);
        return next;
      } catch (error) {
        if (error instanceof ConditionFailedError) return undefined;
        throw error;
      }
    },
  };
}

export type PolicyStore = ReturnType<typeof createPolicyStore>;
