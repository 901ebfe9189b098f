import * as z from 'zod';
import { belowLimit } from '../../store/conditions.ts';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import { batchGetAll } from '../../store/items.ts';
import { tenantPk } from '../../store/partitions.ts';
import type { Table, UpdateOp, WriteOp } from '../../store/table.ts';

/**
 * Owner of the items around a page's subscribers, all in the tenant partition:
 * - `page_notice`: one subscriber's notice of one incident update, claimed before it is sent
 *   (`itemNotExists`), so a redelivered job sends it never twice; its outcome after; 30 days.
 * - `page_notice_tally`: the outcomes of one update's notices, counted (what the tenant reads).
 * - `page_sub_quota`: a counter of subscription requests in one window (an address on a page per
 *   hour, a page per day, the tenant per day), added to under a condition that holds its limit.
 */

const NOTICE_OUTCOMES = ['sent', 'failed', 'skipped'] as const;
export type NoticeOutcome = (typeof NOTICE_OUTCOMES)[number];

const DAY_S = 86_400;
const NOTICE_DAYS = 30;

const notice = defineItem({
  type: itemType('page_notice'),
  schema: z.object({
    status: z.enum(['sending', ...NOTICE_OUTCOMES]),
    reason: z.string().nullable(),
    at: z.string(),
  }),
  key: (k: { tenant_id: string; update_id: string; subscriber_id: string }) => ({
    pk: tenantPk(k.tenant_id),
    sk: `PAGENOTICE#${k.update_id}#${k.subscriber_id}`,
  }),
  keyOf: null,
  ttl: (r) => Math.ceil(Date.parse(r.at) / 1000) + NOTICE_DAYS * DAY_S,
  docKey: { tenant_id: '<tnt>', update_id: '<piu_id>', subscriber_id: '<psb_id>' },
});

const tally = defineItem({
  type: itemType('page_notice_tally'),
  schema: z.object({
    update_id: z.string(),
    sent: z.number().int().optional(),
    failed: z.number().int().optional(),
    skipped: z.number().int().optional(),
  }),
  key: (k: { tenant_id: string; update_id: string }) => ({
    pk: tenantPk(k.tenant_id),
    sk: `PAGENOTICETALLY#${k.update_id}`,
  }),
  keyOf: null,
  docKey: { tenant_id: '<tnt>', update_id: '<piu_id>' },
});

const quota = defineItem({
  type: itemType('page_sub_quota'),
  schema: z.object({ count: z.number().int() }),
  key: (k: { tenant_id: string; scope: string }) => ({
    pk: tenantPk(k.tenant_id),
    sk: `PAGESUBQUOTA#${k.scope}`,
  }),
  keyOf: null,
  docKey: { tenant_id: '<tnt>', scope: '<scope>#<window>' },
});

const expiry = (nowMs: number, days: number) => Math.ceil(nowMs / 1000) + days * DAY_S;

/**
 * The claim of one subscriber's notice of one update: fails (ConditionFailedError) when it was
 * claimed before, by this job's earlier delivery or another.
 */
export function noticeClaimedOp(
  k: { tenant_id: string; update_id: string; subscriber_id: string },
  at: string,
): WriteOp {
  return notice.putAt(k, { status: 'sending', reason: null, at }, { kind: 'itemNotExists' });
}

/** The outcome of a claimed notice, and its count in the update's tally. */
export function noticeOutcomeOps(
  k: { tenant_id: string; update_id: string; subscriber_id: string },
  outcome: { status: NoticeOutcome; reason: string | null; at: string },
  nowMs: number,
): UpdateOp[] {
  return [
    notice.update(k, { set: outcome, ttl: expiry(nowMs, NOTICE_DAYS) }),
    tally.upsert(
      { tenant_id: k.tenant_id, update_id: k.update_id },
      { set: { update_id: k.update_id }, add: { [outcome.status]: 1 }, ttl: expiry(nowMs, 400) },
    ),
  ];
}

/** The tallies of these updates (absent for an update that told no one). */
export async function readTallies(
  table: Table,
  tenantId: string,
  updateIds: readonly string[],
): Promise<Map<string, Record<NoticeOutcome, number>>> {
  const keys = updateIds.map((update_id) => tally.key({ tenant_id: tenantId, update_id }));
  const found = tally.parseAll(await batchGetAll(table, keys));
  return new Map(
    found.map((t) => [t.update_id, { sent: t.sent ?? 0, failed: t.failed ?? 0, skipped: t.skipped ?? 0 }]),
  );
}

/** The add of one request to the counter of `scope` while it stays within `limit`; it expires after `ttlSeconds`. */
export function quotaTakenOp(
  tenantId: string,
  scope: string,
  limit: number,
  nowMs: number,
  ttlSeconds: number,
) {
  return quota.upsert(
    { tenant_id: tenantId, scope },
    { add: { count: 1 }, ttl: Math.ceil(nowMs / 1000) + ttlSeconds, condition: belowLimit('count', limit) },
  );
}
