import * as z from 'zod';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import { checkPartition } from '../../store/partitions.ts';
import type { Table, WriteOp } from '../../store/table.ts';

/**
 * Owner of `notify_policy`: a check's notification policy, one item in the check's partition (so
 * the check's partition purge removes it). Every write bumps `revision` and holds only while the
 * stored revision is the one the writer read.
 */

/** The policy defaults (SPEC.md "Notification policy"; suppression is DECISIONS.md's). */
export const POLICY_DEFAULTS = {
  cooldown_seconds: 300,
  notify_on_recovery: true,
  silenced: false,
  repeat_interval_seconds: 0,
  suppress_when_upstream_down: true,
  /** Flap detection (issue 35): more than this many changes within flap_window_seconds; 0: off. */
  flap_changes: 6,
  flap_window_seconds: 1800,
  /** How long a flapping check must stay in one state before that state is told (issue 75); at most the window. */
  flap_settle_seconds: 300,
} as const;

const policySchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  check_id: z.string(),
  cooldown_seconds: z.number().int(),
  notify_on_recovery: z.boolean(),
  silenced: z.boolean(),
  repeat_interval_seconds: z.number().int(),
  suppress_when_upstream_down: z.boolean(),
  /** Absent in policies stored before issue 35: the defaults apply (flapping.ts). */
  flap_changes: z.number().int().optional(),
  flap_window_seconds: z.number().int().optional(),
  /** Absent in policies stored before issue 75: the default applies (flapping.ts). */
  flap_settle_seconds: z.number().int().optional(),
  created_at: z.string(),
  updated_at: z.string(),
  /** Bumped by every write: a pending repeat of an older revision stops. */
  revision: z.number().int(),
});
export type PolicyRecord = z.infer<typeof policySchema>;

const policy = defineItem({
  type: itemType('notify_policy'),
  schema: policySchema,
  key: (k: { check_id: string }) => ({ pk: checkPartition(k.check_id), sk: 'POLICY' }),
  docKey: { check_id: '<chk_id>' },
});

/** The check's stored policy (consistent), or undefined when none was ever written (the defaults apply). */
export function getPolicy(table: Table, checkId: string): Promise<PolicyRecord | undefined> {
  return policy.get(table, { check_id: checkId }, { consistent: true });
}

/**
 * The put of `next` over the revision `readRevision` it was read at (0: no policy yet, so none may
 * be stored); the caller adds the check-exists condition to the same transaction.
 */
export function policyWrittenOp(next: PolicyRecord, readRevision: number): WriteOp {
  return policy.put(
    next,
    readRevision === 0
      ? { kind: 'itemNotExists' }
      : { kind: 'compare', attr: 'revision', op: '=', value: readRevision },
  );
}
