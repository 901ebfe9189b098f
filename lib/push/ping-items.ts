import * as z from 'zod';
import { isoTime } from '../platform/clock.ts';
import { newId } from '../platform/ids.ts';
import { defineItem } from '../store/item-definition.ts';
import { itemType } from '../store/item-type.ts';
import type { PageSource } from '../store/paging.ts';
import { checkPartition } from '../store/partitions.ts';
import type { Item, Table, WriteOp } from '../store/table.ts';

/**
 * Owner of the `ping` items: the ping log of a push check (DECISIONS.md "Heartbeats"), one item
 * per ping received on its ping URLs, in the check's partition (`PING#<png_id>`, time-ordered ids),
 * immutable, expiring with the tenant's retention and purged with the check.
 */

/** The largest ping body kept (Healthchecks' default limit): longer bodies are cut to it. */
export const PING_BODY_LIMIT_BYTES = 100 * 1024;

export const PING_KINDS = ['success', 'start', 'fail', 'exit', 'log'] as const;
export type PingKind = (typeof PING_KINDS)[number];

export const pingSchema = z.object({
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
  method: z.string(),
  source_ip: z.string(),
  user_agent: z.string(),
  /** An end of a run that had a /start (same rid when given): the run's duration. */
  duration_ms: z.number().int().optional(),
  /** The result this ping recorded, when it recorded one (success, fail, exit). */
  result_id: z.string().optional(),
  /** The check was disabled (paused): the ping was kept and changed nothing (Healthchecks' "ignored"). */
  ignored: z.boolean().optional(),
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
  const ttl = Math.floor(Date.parse(ping.at) / 1000) + retentionDays * 86_400;
  return pingItem.put(ping, { kind: 'itemNotExists' }, { ttl });
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
