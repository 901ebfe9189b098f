import * as z from 'zod';
import { isoTime } from '../../platform/clock.ts';
import { newId } from '../../platform/ids.ts';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import type { PageSource } from '../../store/paging.ts';
import { checkPartition } from '../../store/partitions.ts';
import type { Item, Table, WriteOp } from '../../store/table.ts';

/**
 * Owner of the `ping` items: the ping log of a push check (DECISIONS.md "Heartbeats"), one item
 * per ping received on its ping URLs, in the check's partition (`PING#<png_id>`, time-ordered ids),
 * immutable, expiring with the tenant's retention and purged with the check; and of the counter and
 * slots that keep only the check's last N pings (below).
 */

/** The largest ping body kept (Healthchecks' default limit): longer bodies are cut to it. */
export const PING_BODY_LIMIT_BYTES = 100 * 1024;
/** What is kept of a body once its tenant's day of ping bodies is spent (VIGIL_PING_BODY_BYTES_PER_DAY). */
export const PING_BODY_OVER_BUDGET_BYTES = 1024;

export const PING_KINDS = ['success', 'start', 'fail', 'exit', 'log'] as const;
export type PingKind = (typeof PING_KINDS)[number];

const pingSchema = z.object({
  id: z.string(),
  check_id: z.string(),
  at: z.string(),
  kind: z.enum(PING_KINDS),
  /** `/<0-255>` pings: the exit status (0 success, anything else failure). */
  exit_status: z.number().int().optional(),
  /** `?rid=`: the run this ping belongs to (overlapping runs of one job). */
  rid: z.string().optional(),
  /** The request body as text (at most PING_BODY_LIMIT_BYTES); '' when none. */
  body: z.string(),
  /** True when the body was cut to the limit. */
  body_truncated: z.boolean().optional(),
  /** True when the body was cut to PING_BODY_OVER_BUDGET_BYTES: the tenant's ping body budget was spent. */
  body_over_budget: z.boolean().optional(),
  method: z.string(),
  source_ip: z.string(),
  user_agent: z.string(),
  /** An end of a run that had a /start (same rid when given): the run's duration. */
  duration_ms: z.number().int().optional(),
  /** The result this ping recorded, when it recorded one (success, fail, exit). */
  result_id: z.string().optional(),
  /** The check was disabled (paused): the ping was kept and changed nothing (Healthchecks' "ignored"). */
  ignored: z.boolean().optional(),
  /**
   * The number the check's counter gave this ping (`ping_seq`): the log keeps the last N numbers.
   * Pings written before it was stored have none and are found through their `ping_slot`.
   */
  seq: z.number().int().optional(),
});
export type PingRecord = z.infer<typeof pingSchema>;

const PING_PREFIX = 'PING#';

const pingItem = defineItem({
  type: itemType('ping'),
  schema: pingSchema,
  key: (k: { check_id: string; id: string }) => ({
    pk: checkPartition(k.check_id),
    sk: `${PING_PREFIX}${k.id}`,
  }),
  ttl: (_r, c: { ttl: number }) => c.ttl,
  docKey: { check_id: '<chk_id>', id: '<png_id>' },
});

/** A new ping's record (its id orders it in time). */
export function newPing(input: Omit<PingRecord, 'id' | 'at'>, atMs: number): PingRecord {
  return { id: newId('png', atMs), at: isoTime(atMs), ...input };
}

/** The put of a ping, expiring after the tenant's retention. */
export function pingRecordedOp(ping: PingRecord, retentionDays: number): WriteOp {
  return pingItem.put(ping, { kind: 'itemNotExists' }, { ttl: pingTtl(ping, retentionDays) });
}

/** The delete of one ping (the log keeps the last N: `evictOldPings` below). */
function pingDeletedOp(checkId: string, pingId: string): WriteOp {
  return pingItem.delete({ check_id: checkId, id: pingId });
}

/** The expiry (epoch seconds) of a ping item, after the tenant's retention. */
export function pingTtl(ping: PingRecord, retentionDays: number): number {
  return Math.floor(Date.parse(ping.at) / 1000) + retentionDays * 86_400;
}

/** The paged list of a check's pings, newest first (for sealed cursors). */
export function pingsSource(checkId: string): PageSource {
  return { pk: checkPartition(checkId), prefix: PING_PREFIX };
}

/** A ping item read through a page of `pingsSource`. */
export function parsePing(item: Item): PingRecord {
  return pingItem.parse(item);
}

/** The check's latest pings, newest first (at most `limit`). */
export async function latestPings(table: Table, checkId: string, limit: number): Promise<PingRecord[]> {
  const page = await table.query({
    pk: checkPartition(checkId),
    sk: { op: 'beginsWith', prefix: PING_PREFIX },
    direction: 'desc',
    limit,
    consistent: true,
  });
  return page.items.map(parsePing);
}

/*
 * The items that bound a push check's ping log to its last N pings (docs/heartbeats.md
 * "The ping log's bounds"): `ping_seq`, the check's ping counter (`PINGSEQ`), whose number each
 * ping takes before it is written and keeps (`seq`). Once it is written, the check's oldest pings
 * are read (two at most, oldest first) and each whose number is N or more back is deleted by key:
 * no scan of the log, whatever its size, and nothing more written with the ping. Pings written
 * before they kept their number have a `ping_slot` each (`PINGNO#<n>`, naming the ping that got
 * number n), through which they are still found and deleted while they are the oldest; slots are
 * no longer written, expire with their pings and go with the check.
 */

const pingSeq = defineItem({
  type: itemType('ping_seq'),
  schema: z.object({ seq: z.number().int() }),
  key: (k: { check_id: string }) => ({ pk: checkPartition(k.check_id), sk: 'PINGSEQ' }),
  keyOf: null,
  docKey: { check_id: '<chk_id>' },
});

const SLOT_PREFIX = 'PINGNO#';

const pingSlot = defineItem({
  type: itemType('ping_slot'),
  schema: z.object({ check_id: z.string(), seq: z.number().int(), ping_id: z.string() }),
  // Only ever read by key: the number as it is.
  key: (k: { check_id: string; seq: number }) => ({
    pk: checkPartition(k.check_id),
    sk: `${SLOT_PREFIX}${k.seq}`,
  }),
  ttl: (_r, c: { ttl: number }) => c.ttl,
  docKey: { check_id: '<chk_id>', seq: '<n>' },
});

/** The check's next ping number (1, 2, …): one atomic counter update. */
export async function nextPingSeq(table: Table, checkId: string): Promise<number> {
  const item = await table.update(pingSeq.upsert({ check_id: checkId }, { add: { seq: 1 } }));
  return pingSeq.parse(item).seq;
}

/** Oldest pings looked at per eviction: one more than a ping adds, so a log past N shrinks back. */
const EVICT_LOOK = 2;
/** Slots read at most per eviction while pings from before numbers were kept remain. */
const SLOTS_LOOK = 1000;

/**
 * Keeps the check's log to the pings numbered after `seq - keep` (`seq`: the number of the ping
 * just written): deletes its oldest pings numbered `seq - keep` or lower, each by one DeleteItem
 * (a delete is idempotent, so a retried or concurrent eviction does no harm). While the oldest is
 * a ping from before numbers were kept, the slots say which of those are that far back.
 */
export async function evictOldPings(table: Table, checkId: string, seq: number, keep: number): Promise<void> {
  const last = seq - keep;
  if (last < 1) return;
  const page = await table.query({
    pk: checkPartition(checkId),
    sk: { op: 'beginsWith', prefix: PING_PREFIX },
    limit: EVICT_LOOK,
  });
  for (const ping of page.items.map(parsePing)) {
    if (ping.seq === undefined) {
      await evictSlottedPings(table, checkId, last);
      return;
    }
    if (ping.seq > last) return;
    await table.transact([pingDeletedOp(checkId, ping.id)]);
  }
}

/**
 * Deletes the pings written with a slot whose number is `last` or lower, with their slots (slot
 * keys are not zero-padded, so their order is not their numbers': a page of them is read whole).
 */
async function evictSlottedPings(table: Table, checkId: string, last: number): Promise<void> {
  const page = await table.query({
    pk: checkPartition(checkId),
    sk: { op: 'beginsWith', prefix: SLOT_PREFIX },
    limit: SLOTS_LOOK,
    consistent: true,
  });
  for (const slot of page.items.map((item) => pingSlot.parse(item))) {
    if (slot.seq > last) continue;
    await table.transact([
      pingDeletedOp(checkId, slot.ping_id),
      pingSlot.delete({ check_id: checkId, seq: slot.seq }),
    ]);
  }
}
