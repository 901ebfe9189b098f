import * as z from 'zod';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import { tenantPk } from '../../store/partitions.ts';
import { ConditionFailedError, type Table } from '../../store/table.ts';

/**
 * Owner of `notify_fold_count` and `notify_settings` (docs/notifications.md "Grouping and the storm
 * fold"). The fold count is the number of individual alerts one channel was sent in one calendar
 * minute, raised by a conditional add; `notify_settings` is the tenant's alerting settings
 * (`alert_fold_per_minute`), absent until first written (the defaults then).
 */

export const DEFAULT_FOLD_PER_MINUTE = 10;
export const MIN_FOLD_PER_MINUTE = 1;
export const MAX_FOLD_PER_MINUTE = 1000;

const alertSettingsSchema = z.object({
  alert_fold_per_minute: z.number().int().default(DEFAULT_FOLD_PER_MINUTE),
});
export type AlertSettings = z.output<typeof alertSettingsSchema>;

const settings = defineItem({
  type: itemType('notify_settings'),
  schema: alertSettingsSchema,
  key: (k: { tenant_id: string }) => ({ pk: tenantPk(k.tenant_id), sk: 'NOTIFY#SETTINGS' }),
  keyOf: null,
  docKey: { tenant_id: '<tnt>' },
});

const foldCount = defineItem({
  type: itemType('notify_fold_count'),
  schema: z.object({ count: z.number().int() }),
  key: (k: { tenant_id: string; channel_id: string; minute: number }) => ({
    pk: `NFOLD#${k.tenant_id}#${k.channel_id}`,
    sk: String(k.minute),
  }),
  keyOf: null,
  docKey: { tenant_id: '<tnt>', channel_id: '<chn_id>', minute: '<epoch minute>' },
});

/** The tenant's alerting settings (the defaults when never written). */
export async function readAlertSettings(table: Table, tenantId: string): Promise<AlertSettings> {
  return (await settings.get(table, { tenant_id: tenantId })) ?? alertSettingsSchema.parse({});
}

/** Stores the tenant's alerting settings whole. */
export async function writeAlertSettings(
  table: Table,
  tenantId: string,
  value: AlertSettings,
): Promise<void> {
  await table.transact([settings.putAt({ tenant_id: tenantId }, value)]);
}

/**
 * Takes one individual send of `channelId` at `nowMs` when the channel was sent fewer than `limit`
 * in this calendar minute and the one before together (so no 60 s holds more than `limit`); false
 * means the alert folds. The counters expire after a day.
 */
export async function takeIndividualSend(
  table: Table,
  input: { tenant_id: string; channel_id: string; limit: number; nowMs: number },
): Promise<boolean> {
  const minute = Math.floor(input.nowMs / 60_000);
  const key = { tenant_id: input.tenant_id, channel_id: input.channel_id };
  const before = await foldCount.get(table, { ...key, minute: minute - 1 }, { consistent: true });
  const left = input.limit - (before?.count ?? 0);
  if (left <= 0) return false;
  try {
    await table.update(
      foldCount.upsert(
        { ...key, minute },
        {
          add: { count: 1 },
          ttl: (minute + 1) * 60 + 86_400,
          condition: {
            kind: 'or',
            conditions: [
              { kind: 'attrNotExists', attr: 'count' },
              { kind: 'compare', attr: 'count', op: '<', value: left },
            ],
          },
        },
      ),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionFailedError) return false;
    throw error;
  }
}

/** Read-only: the individual sends `channelId` has left now (this minute and the one before together). */
export async function individualSendsLeft(
  table: Table,
  input: { tenant_id: string; channel_id: string; limit: number; nowMs: number },
): Promise<number> {
  const minute = Math.floor(input.nowMs / 60_000);
  const key = { tenant_id: input.tenant_id, channel_id: input.channel_id };
  const [before, current] = await Promise.all([
    foldCount.get(table, { ...key, minute: minute - 1 }, { consistent: true }),
    foldCount.get(table, { ...key, minute }, { consistent: true }),
  ]);
  return input.limit - (before?.count ?? 0) - (current?.count ?? 0);
}
