import { z } from 'zod';
import { isoTime } from '../platform/clock.ts';
import { stamp } from '../store/item-type.ts';
import { parseItem } from '../store/items.ts';
import { ConditionFailedError, type Table } from '../store/table.ts';
import { notifyKeys, notifyTypes } from './notify-keys.ts';

/** A check's notification state: when its last alert was sent (the cooldown counts from it). */
const notifyStateSchema = z.object({ last_sent_at: z.string() });

/** When the check's last alert was sent, or undefined when none ever was. */
export async function lastSentAtMs(table: Table, checkId: string): Promise<number | undefined> {
  const item = await table.get(notifyKeys.notifyState(checkId), { consistent: true });
  return item ? Date.parse(parseItem(notifyStateSchema, item).last_sent_at) : undefined;
}

/** Records an alert sent at `atMs`; an older time never replaces a newer one. */
export async function recordSent(
  table: Table,
  tenantId: string,
  checkId: string,
  atMs: number,
): Promise<void> {
  const at = isoTime(atMs);
  try {
    await table.update({
      type: 'update',
      key: notifyKeys.notifyState(checkId),
      set: { ...stamp(notifyTypes.notifyState), tenant_id: tenantId, last_sent_at: at },
      condition: {
        kind: 'or',
        conditions: [
          { kind: 'attrNotExists', attr: 'last_sent_at' },
          { kind: 'compare', attr: 'last_sent_at', op: '<', value: at },
        ],
      },
    });
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
  }
}
