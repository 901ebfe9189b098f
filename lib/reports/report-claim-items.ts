import * as z from 'zod';
import { defineItem } from '../store/item-definition.ts';
import { itemType } from '../store/item-type.ts';
import { tenantPk } from '../store/partitions.ts';
import type { Table, WriteOp } from '../store/table.ts';

/**
 * Owner of `report_claim` (docs/data-model.md "Reports"): one per person and period, the record
 * that a report is being sent or was. A sender claims it with a lease before sending (a put that
 * holds while no claim exists, or the one there is `sending` with its lease run out: a crash
 * between the claim and the send loses nothing, the next sweep takes it over) and marks it `sent`
 * (or `skipped`, with the reason) under its own claim id after: a redelivered sweep, a restart or
 * a second sender meanwhile finds it and sends nothing. Expires 100 days after it was written:
 * a period is only ever claimed while it is the person's last whole one.
 */

const REPORT_CLAIM_STATES = ['sending', 'sent', 'skipped'] as const;

const claimSchema = z.object({
  tenant_id: z.string(),
  user_id: z.string(),
  /** The period's key (report-period.ts). */
  period: z.string(),
  state: z.enum(REPORT_CLAIM_STATES),
  /** The sender holding the claim: only it marks the claim done. */
  claim_id: z.string(),
  /** While `sending`: until when (epoch ms) the claim is its sender's. */
  lease_until: z.number().int(),
  /** Why a report was skipped (the e-mail quota spent, no sender configured). */
  reason: z.string().optional(),
  updated_at: z.string(),
  expires_at: z.number().int(),
});
export type ReportClaim = z.infer<typeof claimSchema>;

const CLAIM_TTL_SECONDS = 100 * 86_400;

const claim = defineItem({
  type: itemType('report_claim'),
  schema: claimSchema,
  key: (k: { tenant_id: string; user_id: string; period: string }) => ({
    pk: tenantPk(k.tenant_id),
    sk: `REPORTCLAIM#${k.user_id}#${k.period}`,
  }),
  ttl: (r) => r.expires_at,
  docKey: { tenant_id: '<tnt>', user_id: '<usr>', period: '<period>' },
});

/** The claim of a person's period, or undefined (consistent). */
export function getReportClaim(
  table: Table,
  k: { tenant_id: string; user_id: string; period: string },
): Promise<ReportClaim | undefined> {
  return claim.get(table, k, { consistent: true });
}

/** The new claim of a period for `claim_id` until `leaseUntil` (ms), written at `nowMs`. */
export function reportClaimedOp(
  k: { tenant_id: string; user_id: string; period: string },
  claimId: string,
  nowMs: number,
  leaseUntil: number,
): WriteOp {
  return claim.put(
    {
      ...k,
      state: 'sending',
      claim_id: claimId,
      lease_until: leaseUntil,
      updated_at: new Date(nowMs).toISOString(),
      expires_at: Math.ceil(nowMs / 1000) + CLAIM_TTL_SECONDS,
    },
    {
      kind: 'or',
      conditions: [
        { kind: 'itemNotExists' },
        {
          kind: 'and',
          conditions: [
            { kind: 'compare', attr: 'state', op: '=', value: 'sending' },
            { kind: 'compare', attr: 'lease_until', op: '<', value: nowMs },
          ],
        },
      ],
    },
  );
}

/** The end of a claim held by `claimId`: sent, or skipped with the reason. */
export function reportDoneOp(
  k: { tenant_id: string; user_id: string; period: string },
  claimId: string,
  outcome: { state: 'sent' } | { state: 'skipped'; reason: string },
  nowMs: number,
): WriteOp {
  return claim.update(k, {
    set: {
      state: outcome.state,
      ...(outcome.state === 'skipped' ? { reason: outcome.reason } : {}),
      updated_at: new Date(nowMs).toISOString(),
    },
    condition: { kind: 'compare', attr: 'claim_id', op: '=', value: claimId },
  });
}
