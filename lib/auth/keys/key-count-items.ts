import * as z from 'zod';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import { tenantPk } from '../../store/partitions.ts';
import type { Table, UpdateOp, WriteOp } from '../../store/table.ts';

/** API keys a tenant may hold at once, over all its members (403 LIMIT_EXCEEDED past it). */
export const API_KEY_LIMIT = 100;

/**
 * The tenant's key counter (`api_key_count`, docs/data-model.md). `count`: every transaction that
 * creates keys adds to it under the condition that it stays within API_KEY_LIMIT, every one that
 * deletes keys takes them off, so the limit holds under concurrent creates. `admin_key_count`: the
 * same for admin keys (lib/auth/keys/key-count.ts isAdminKey), and every deletion of admin keys is
 * conditional on one staying, so two concurrent revokes of the last two cannot both succeed.
 */
const keyCountSchema = z.object({
  tenant_id: z.string(),
  count: z.number().int(),
  /** Absent on counters from before admin keys were counted (seeded on first use). */
  admin_key_count: z.number().int().optional(),
});
export type KeyCount = z.infer<typeof keyCountSchema>;

const keyCount = defineItem({
  type: itemType('api_key_count'),
  schema: keyCountSchema,
  key: (k: { tenant_id: string }) => ({ pk: tenantPk(k.tenant_id), sk: 'KEYCOUNT' }),
  docKey: { tenant_id: '<tnt>' },
});

/** The tenant's counter, or undefined for a tenant from before it (consistent). */
export function getKeyCount(table: Table, tenantId: string): Promise<KeyCount | undefined> {
  return keyCount.get(table, { tenant_id: tenantId }, { consistent: true });
}

/** The counter of a new tenant, which starts with `count` keys, `adminKeys` of them admin keys. */
export function newKeyCountOp(tenantId: string, count: number, adminKeys: number): WriteOp {
  return keyCount.put({ tenant_id: tenantId, count, admin_key_count: adminKeys }, { kind: 'itemNotExists' });
}

/** Sets `admin_key_count` on a counter from before it was kept (only while it is absent). */
export function seedAdminKeyCountOp(tenantId: string, adminKeys: number): UpdateOp {
  return keyCount.update(
    { tenant_id: tenantId },
    {
      set: { admin_key_count: adminKeys },
      condition: { kind: 'attrNotExists', attr: 'admin_key_count' },
    },
  );
}

/** Counts one new key; its condition fails when the tenant already holds API_KEY_LIMIT keys. */
export function countKeyOp(tenantId: string, adminKey: boolean): UpdateOp {
  return keyCount.update(
    { tenant_id: tenantId },
    {
      add: adminKey ? { count: 1, admin_key_count: 1 } : { count: 1 },
      condition: { kind: 'compare', attr: 'count', op: '<', value: API_KEY_LIMIT },
    },
  );
}

/**
 * Takes `n` deleted keys off the counter, `adminKeys` of them off the admin keys. With admin keys
 * its condition fails unless more than `adminKeysLeaving` (default `adminKeys`) admin keys are
 * counted, so at least one stays.
 */
export function uncountKeysOp(
  tenantId: string,
  n: number,
  adminKeys = 0,
  adminKeysLeaving = adminKeys,
): UpdateOp {
  return keyCount.update(
    { tenant_id: tenantId },
    {
      add: adminKeys > 0 ? { count: -n, admin_key_count: -adminKeys } : { count: -n },
      ...(adminKeysLeaving === 0
        ? {}
        : {
            condition: {
              kind: 'compare',
              attr: 'admin_key_count',
              op: '>',
              value: adminKeysLeaving,
            } as const,
          }),
    },
  );
}
