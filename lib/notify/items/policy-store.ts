import { checkExistsOp } from '../../checks/check-items.ts';
import { ConditionFailedError, type Table } from '../../store/table.ts';
import { getPolicy, type PolicyRecord, policyWrittenOp } from './policy-items.ts';

/**
 * A check's notification policy (policy-items.ts). Every write bumps `revision` and holds only
 * while the stored revision is still the one the writer read, so of two concurrent writes one wins
 * and the other reads again (a pending repeat of an older revision then stops).
 */
export function createPolicyStore(table: Table) {
  return {
    /** The check's stored policy, or undefined when none was ever written (the defaults apply). */
    get: (checkId: string): Promise<PolicyRecord | undefined> => getPolicy(table, checkId),

    /**
     * Writes `record` as the next revision of the one it was read at (`record.revision`, 0 for a
     * check without a policy) while the check still exists; answers the stored record, or
     * undefined when another write (or the check's deletion) came first.
     */
    async put(record: PolicyRecord): Promise<PolicyRecord | undefined> {
      const next = { ...record, revision: record.revision + 1 };
      try {
        await table.transact([
          policyWrittenOp(next, record.revision),
          checkExistsOp(record.tenant_id, record.check_id),
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
