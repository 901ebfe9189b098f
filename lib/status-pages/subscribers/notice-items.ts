import * as z from 'zod';
import { isoTime } from '../../platform/clock.ts';
import { belowLimit } from '../../store/conditions.ts';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import { batchGetAll } from '../../store/items.ts';
import { tenantPk } from '../../store/partitions.ts';
import { type ClaimTake, takeClaim } from '../../store/send-claims.ts';
import { ConditionFailedError, MAX_QUERY_LIMIT, type Table } from '../../store/table.ts';

/**
 * Owner of the items around a page's subscribers, all in the tenant partition:
 * - `page_notice`: one subscriber's notice of one incident update (or maintenance moment), claimed
 *   before each attempt under the send-claim rule (lib/store/send-claims.ts: a notice that arrived
 *   is never sent again; a failed attempt is taken again until MAX_NOTICE_ATTEMPTS, an abandoned
 *   one after its claim expired); its outcome after; 30 days. `retrying`: its last attempt failed
 *   with attempts left; `failed`: its attempts are spent (what the tenant's failed list shows).
 * - `page_notice_tally`: the final outcomes of one update's notices, counted (what the tenant reads).
 * - `page_sub_quota`: a counter of subscription requests in one window (an address on a page per
 *   hour, a page per day, the tenant per day), added to under a condition that holds its limit.
 */

const NOTICE_OUTCOMES = ['sent', 'failed', 'skipped'] as const;
export type NoticeOutcome = (typeof NOTICE_OUTCOMES)[number];

/** Attempts per notice, the first included: the channels' series (SPEC.md limits: 3, 1 s then 2 s apart). */
export const MAX_NOTICE_ATTEMPTS = 3;

type NoticeKey = { tenant_id: string; update_id: string; subscriber_id: string };
const NOTICE_PREFIX = 'PAGENOTICE#';

const DAY_S = 86_400;
const NOTICE_DAYS = 30;

const notice = defineItem({
  type: itemType('page_notice'),
  schema: z.object({
    status: z.enum(['sending', 'retrying', ...NOTICE_OUTCOMES]),
    /** Why it was not sent (the last attempt's error, scrubbed of the subscriber's secrets). */
    reason: z.string().nullable(),
    /** The first claim's time. */
    at: z.string(),
    /** Attempts taken so far, the current one counted (items of before retries: 1). */
    attempts: z.number().int().min(1).default(1),
    /** When the current attempt was taken (items of before retries: `at`). */
    taken_at: z.string().optional(),
  }),
  key: (k: NoticeKey) => ({
    pk: tenantPk(k.tenant_id),
    sk: `${NOTICE_PREFIX}${k.update_id}#${k.subscriber_id}`,
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

const CLAIM_STATES = { sending: 'pending', retrying: 'failed' } as const;

/**
 * Takes one subscriber's notice of one update (or moment) for an attempt: the first at once, the
 * next of a failed or abandoned one (lib/store/send-claims.ts); never one sent, skipped or failed
 * for good, so a redelivered job, or a batch enqueued twice, tells nobody twice.
 */
export function takeNotice(table: Table, k: NoticeKey, nowMs: number): Promise<ClaimTake> {
  const taken_at = isoTime(nowMs);
  return takeClaim(
    table,
    {
      first: notice.putAt(
        k,
        { status: 'sending', reason: null, at: taken_at, attempts: 1, taken_at },
        { kind: 'itemNotExists' },
      ),
      read: async () => {
        const seen = await notice.get(table, k, { consistent: true });
        if (!seen) return undefined;
        const state =
          seen.status === 'sending' || seen.status === 'retrying' ? CLAIM_STATES[seen.status] : 'done';
        return { state, attempts: seen.attempts, takenMs: Date.parse(seen.taken_at ?? seen.at) };
      },
      retake: (attempts, held) =>
        table.update(
          notice.update(k, {
            set: { status: 'sending', attempts, taken_at },
            condition: held,
            ttl: expiry(nowMs, NOTICE_DAYS),
          }),
        ),
    },
    nowMs,
    MAX_NOTICE_ATTEMPTS,
  );
}

/**
 * Records what attempt `attempt` of a taken notice came to: a failed one with attempts left is
 * `retrying` (counted nowhere yet); a final outcome is counted in the update's tally, in the same
 * transaction, so a crash between them neither loses nor doubles a count.
 */
export async function recordNoticeOutcome(
  table: Table,
  k: NoticeKey,
  attempt: number,
  outcome: { status: NoticeOutcome; reason: string | null },
  nowMs: number,
): Promise<void> {
  const ttl = expiry(nowMs, NOTICE_DAYS);
  if (outcome.status === 'failed' && attempt < MAX_NOTICE_ATTEMPTS) {
    await table.update(notice.update(k, { set: { status: 'retrying', reason: outcome.reason }, ttl }));
    return;
  }
  await table.transact([
    notice.update(k, { set: { status: outcome.status, reason: outcome.reason }, ttl }),
    tally.upsert(
      { tenant_id: k.tenant_id, update_id: k.update_id },
      { set: { update_id: k.update_id }, add: { [outcome.status]: 1 }, ttl: expiry(nowMs, 400) },
    ),
  ]);
}

/**
 * A notice whose last attempt was abandoned with none left: failed for good, counted once (only
 * while it is still that attempt's claim).
 */
export async function recordNoticeAbandoned(table: Table, k: NoticeKey, nowMs: number): Promise<void> {
  const held = {
    kind: 'and' as const,
    conditions: [
      { kind: 'compare' as const, attr: 'status', op: '=' as const, value: 'sending' },
      { kind: 'compare' as const, attr: 'attempts', op: '=' as const, value: MAX_NOTICE_ATTEMPTS },
    ],
  };
  const reason = 'its last attempt was interrupted before it was sent';
  try {
    await table.transact([
      notice.update(k, {
        set: { status: 'failed', reason },
        condition: held,
        ttl: expiry(nowMs, NOTICE_DAYS),
      }),
      tally.upsert(
        { tenant_id: k.tenant_id, update_id: k.update_id },
        { set: { update_id: k.update_id }, add: { failed: 1 }, ttl: expiry(nowMs, 400) },
      ),
    ]);
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
  }
}

/**
 * The notices of one update that failed for good (at most `max`, by subscriber id): the
 * subscriber, the attempts and the last error. Reads the update's notices a page at a time (at
 * most one per subscriber of the page).
 */
export async function readFailedNotices(
  table: Table,
  tenantId: string,
  updateId: string,
  max: number,
): Promise<{ subscriber_id: string; attempts: number; error: string | null; at: string }[]> {
  const prefix = `${NOTICE_PREFIX}${updateId}#`;
  const failed: { subscriber_id: string; attempts: number; error: string | null; at: string }[] = [];
  let cursor: string | undefined;
  do {
    const page = await table.query({
      pk: tenantPk(tenantId),
      sk: { op: 'beginsWith', prefix },
      limit: MAX_QUERY_LIMIT,
      ...(cursor ? { cursor } : {}),
    });
    for (const item of page.items) {
      if (!notice.is(item)) continue;
      const record = notice.parse(item);
      if (record.status === 'failed' && failed.length < max)
        failed.push({
          subscriber_id: item.sk.slice(prefix.length),
          attempts: record.attempts,
          error: record.reason,
          at: record.taken_at ?? record.at,
        });
    }
    cursor = page.cursor;
  } while (cursor && failed.length < max);
  return failed;
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
