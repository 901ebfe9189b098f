import * as z from 'zod';
import { belowLimit } from '../../store/conditions.ts';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import { tenantPk } from '../../store/partitions.ts';
import type { Condition, Table, UpdateOp, WriteOp } from '../../store/table.ts';

/**
 * The owner of the slug items: `PINGSLUG#<slug>` in the tenant's partition names the push check
 * that has that `slug` (what `/ping/<ping key>/<slug>` pings), so a slug is unique per tenant. The
 * item is written in the transaction that gives a check its slug (check create or update), and
 * deleted in the one that takes it away (update). A deleted check leaves its item behind, pointing
 * to a check that no longer exists: such an item names nothing (the resolver answers 404) and the
 * next check to take the slug replaces it, on the condition that it still points to that check.
 * Also here: the per-minute counter of checks `?create=1` made for a tenant.
 */

const slugSchema = z.object({ tenant_id: z.string(), slug: z.string(), check_id: z.string() });
export type SlugRecord = z.infer<typeof slugSchema>;

const pingSlug = defineItem({
  type: itemType('ping_slug'),
  schema: slugSchema,
  key: (k: { tenant_id: string; slug: string }) => ({ pk: tenantPk(k.tenant_id), sk: `PINGSLUG#${k.slug}` }),
  docKey: { tenant_id: '<tnt>', slug: '<slug>' },
});

/** The slug's item in the tenant, or undefined (consistent). */
export function getSlug(table: Table, tenantId: string, slug: string): Promise<SlugRecord | undefined> {
  return pingSlug.get(table, { tenant_id: tenantId, slug }, { consistent: true });
}

/**
 * The put that gives `slug` to `checkId`: only while the slug is free (no item), or its item still
 * points to `staleCheckId` (a check that no longer exists, read just before).
 */
export function slugTakenOp(record: SlugRecord, staleCheckId?: string): WriteOp {
  const condition: Condition = staleCheckId
    ? { kind: 'compare', attr: 'check_id', op: '=', value: staleCheckId }
    : { kind: 'itemNotExists' };
  return pingSlug.put(record, condition);
}

/** The delete that frees `slug`, unless another check holds it by now. */
export function slugFreedOp(tenantId: string, slug: string, checkId: string): WriteOp {
  return pingSlug.delete(
    { tenant_id: tenantId, slug },
    {
      kind: 'or',
      conditions: [{ kind: 'itemNotExists' }, { kind: 'compare', attr: 'check_id', op: '=', value: checkId }],
    },
  );
}

/** How many checks `?create=1` may make per tenant and minute. */
export const AUTO_CREATE_PER_MINUTE = 10;

const autoCreateCount = defineItem({
  type: itemType('ping_slug_quota'),
  schema: z.object({ count: z.number().int() }),
  key: (k: { tenant_id: string; minute: number }) => ({
    pk: tenantPk(k.tenant_id),
    sk: `PINGSLUGNEW#${k.minute}`,
  }),
  keyOf: null,
  docKey: { tenant_id: '<tnt>', minute: '<epoch minute>' },
});

/**
 * The update that counts one more check made by `?create=1` in the tenant's current minute, below
 * AUTO_CREATE_PER_MINUTE (its condition fails past it); the item expires an hour later.
 */
export function autoCreateCountedOp(tenantId: string, nowMs: number): UpdateOp {
  const minute = Math.floor(nowMs / 60_000);
  return autoCreateCount.upsert(
    { tenant_id: tenantId, minute },
    {
      add: { count: 1 },
      condition: belowLimit('count', AUTO_CREATE_PER_MINUTE),
      ttl: (minute + 60) * 60,
    },
  );
}
