import * as z from 'zod';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import { checkPartition } from '../../store/partitions.ts';
import type { Table, UpdateOp } from '../../store/table.ts';

/**
 * Owner of `notify_state`: the flow's own state of a check, in the check's partition: when its last
 * alert was sent (the cooldown counts from it).
 */

const notifyState = defineItem({
  type: itemType('notify_state'),
  schema: z.object({ tenant_id: z.string().optional(), last_sent_at: z.string() }),
  key: (k: { check_id: string }) => ({ pk: checkPartition(k.check_id), sk: 'NOTIFY#STATE' }),
  // The record does not repeat its check: the key comes from the context of a write.
  keyOf: (_r, c: { check_id: string }) => c,
  docKey: { check_id: '<chk_id>' },
});

/** When the check's last alert was sent (consistent), or undefined when none ever was. */
export async function lastSentAtMs(table: Table, checkId: string): Promise<number | undefined> {
  const state = await notifyState.get(table, { check_id: checkId }, { consistent: true });
  return state ? Date.parse(state.last_sent_at) : undefined;
}

/**
 * The upsert recording an alert sent at `at` (ISO); its condition fails when a newer time is stored
 * already (an older time never replaces a newer one), which the caller takes as done.
 */
export function alertSentOp(tenantId: string, checkId: string, at: string): UpdateOp {
  return notifyState.upsert(
    { check_id: checkId },
    {
      set: { tenant_id: tenantId, last_sent_at: at },
      condition: {
        kind: 'or',
        conditions: [
          { kind: 'attrNotExists', attr: 'last_sent_at' },
          { kind: 'compare', attr: 'last_sent_at', op: '<', value: at },
        ],
      },
    },
  );
}
