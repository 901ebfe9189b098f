import * as z from 'zod';
import { defineItem } from '../store/item-definition.ts';
import { itemType } from '../store/item-type.ts';
import { transactIf } from '../store/items.ts';
import { tenantPk } from '../store/partitions.ts';
import type { Table } from '../store/table.ts';

/**
 * Owner of `handover_claim`: one person's summary of one handoff of one schedule, claimed before it
 * is sent (`itemNotExists`), so a redelivered job or two chains meeting on one handoff tell nobody
 * twice; released when the send failed (the job's retry tries again). In the tenant partition
 * (purged with the tenant); kept 7 days.
 */

const KEEP_S = 7 * 86_400;

const claim = defineItem({
  type: itemType('handover_claim'),
  schema: z.object({ status: z.enum(['sending', 'sent']), method_id: z.string(), at: z.string() }),
  key: (k: { tenant_id: string; schedule_id: string; handoff_s: number; user_id: string }) => ({
    pk: tenantPk(k.tenant_id),
    sk: `HANDOVER#${k.schedule_id}#${k.handoff_s}#${k.user_id}`,
  }),
  keyOf: null,
  ttl: (r) => Math.ceil(Date.parse(r.at) / 1000) + KEEP_S,
  docKey: {
    tenant_id: '<tnt>',
    schedule_id: '<sch_id>',
    handoff_s: '<handoff epoch second>',
    user_id: '<usr_id>',
  },
});

export type HandoverClaimKey = Parameters<typeof claim.key>[0];

/** Claims one person's summary of one handoff; false when it was claimed before. */
export function claimHandover(
  table: Table,
  k: HandoverClaimKey,
  record: { method_id: string; at: string },
): Promise<boolean> {
  return transactIf(table, [claim.putAt(k, { status: 'sending', ...record }, { kind: 'itemNotExists' })]);
}

/** Marks a claimed summary sent. */
export async function handoverSent(table: Table, k: HandoverClaimKey, at: string): Promise<void> {
  await table.transact([claim.update(k, { set: { status: 'sent', at } })]);
}

/** Releases a claim whose send failed, so the job's next attempt sends it. */
export async function releaseHandover(table: Table, k: HandoverClaimKey): Promise<void> {
  await table.transact([claim.delete(k)]);
}
