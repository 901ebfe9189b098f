import * as z from 'zod';
import { changeOrder, stateChangeEventSchema } from '../../domain/states.ts';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import { queryAll } from '../../store/items.ts';
import type { Condition, Table, UpdateOp, WriteOp } from '../../store/table.ts';

/**
 * Owner of `notify_group` and `digest_entry` (docs/notifications.md "Grouping and the storm fold"):
 * a channel's group buffer. `notify_group` is one group of one channel (a route's group, or the
 * storm fold's): the batch open for it (`open`, due at `open_due_ms`), how many alerts it holds,
 * and when it was last flushed. `digest_entry` is one alert folded into a batch (its event and
 * kind), keyed by the batch and the delivery record it stands for. Joining a batch is a
 * transaction conditioned on the batch still being the group's open one, and the flush closes it
 * conditioned on the count it read, so no alert joins a batch after its digest was cut.
 */

/** A day: groups and entries outlive any wait or interval (3,600 s at most) and then go. */
const TTL_SECONDS = 86_400;

const groupSchema = z.object({
  tenant_id: z.string(),
  channel_id: z.string(),
  /** `route:<by>:<key>` or `fold:<by>:<key>`: the group within its channel. */
  group_id: z.string(),
  by: z.enum(['entity', 'blueprint', 'tenant']),
  key: z.string(),
  /** What a human message calls the group: the blueprint's slug, the entity's name, "all entities". */
  name: z.string(),
  /** The batch collecting now (a `dig_` id), absent between batches. */
  open: z.string().optional(),
  open_due_ms: z.number().int().optional(),
  count: z.number().int().optional(),
  last_flush_ms: z.number().int().optional(),
});
export type GroupRecord = z.infer<typeof groupSchema>;

const entrySchema = z.object({
  tenant_id: z.string(),
  batch_id: z.string(),
  delivery_id: z.string(),
  /** `alert` or `recovery`: what the event would have been sent as alone. */
  kind: z.string(),
  event: stateChangeEventSchema,
  /** The check owning the channel when it is another check's own channel (its record's `channel_check_id`). */
  channel_check_id: z.string().nullable().optional(),
});
export type DigestEntry = z.infer<typeof entrySchema>;

type GroupKey = { tenant_id: string; channel_id: string; group_id: string };

const group = defineItem({
  type: itemType('notify_group'),
  schema: groupSchema,
  key: (k: GroupKey) => ({ pk: `NGROUP#${k.tenant_id}#${k.channel_id}`, sk: k.group_id }),
  ttl: (r: GroupRecord) => Math.floor((r.last_flush_ms ?? r.open_due_ms ?? 0) / 1000) + TTL_SECONDS,
  docKey: { tenant_id: '<tnt>', channel_id: '<chn_id>', group_id: '<scope>:<by>:<key>' },
});

const entry = defineItem({
  type: itemType('digest_entry'),
  schema: entrySchema,
  key: (k: { tenant_id: string; batch_id: string; delivery_id: string }) => ({
    pk: `DIGEST#${k.tenant_id}#${k.batch_id}`,
    sk: k.delivery_id,
  }),
  ttl: (r: DigestEntry) => Math.floor(Date.parse(r.event.timestamp) / 1000) + TTL_SECONDS,
  docKey: { tenant_id: '<tnt>', batch_id: '<dig_id>', delivery_id: '<dlv_id>' },
});

/** The group as stored (consistent), or undefined before its first alert. */
export function readGroup(table: Table, key: GroupKey): Promise<GroupRecord | undefined> {
  return group.get(table, key, { consistent: true });
}

const isOpen = (batchId: string): Condition => ({ kind: 'compare', attr: 'open', op: '=', value: batchId });

/**
 * The writes that open a new batch of the group (none open: `open` absent) holding its first
 * entry; `meta` is the group's description, written with it.
 */
export function batchOpenedOps(
  meta: Omit<GroupRecord, 'open' | 'open_due_ms' | 'count' | 'last_flush_ms'>,
  batchId: string,
  dueMs: number,
  first: DigestEntry,
): WriteOp[] {
  return [
    group.upsert(meta, {
      set: {
        tenant_id: meta.tenant_id,
        channel_id: meta.channel_id,
        group_id: meta.group_id,
        by: meta.by,
        key: meta.key,
        name: meta.name,
        open: batchId,
        open_due_ms: dueMs,
        count: 1,
      },
      ttl: Math.floor(dueMs / 1000) + TTL_SECONDS,
      condition: { kind: 'attrNotExists', attr: 'open' },
    }),
    entry.put(first, { kind: 'itemNotExists' }),
  ];
}

/** The writes that add an entry to the group's open batch `batchId` (still open: condition). */
export function batchJoinedOps(key: GroupKey, batchId: string, next: DigestEntry): WriteOp[] {
  return [
    group.update(key, { add: { count: 1 }, condition: isOpen(batchId) }),
    entry.put(next, { kind: 'itemNotExists' }),
  ];
}

/** Closes batch `batchId` holding exactly `count` entries (else someone joined since: read again). */
export function batchClosedOp(key: GroupKey, batchId: string, count: number, nowMs: number): UpdateOp {
  return group.update(key, {
    set: { last_flush_ms: nowMs },
    remove: ['open', 'open_due_ms', 'count'],
    ttl: Math.floor(nowMs / 1000) + TTL_SECONDS,
    condition: {
      kind: 'and',
      conditions: [isOpen(batchId), { kind: 'compare', attr: 'count', op: '=', value: count }],
    },
  });
}

/**
 * Every entry of a batch in the order of the changes they tell (the change's time, then its id; then
 * the delivery id), which is the order the channel hears them in, so a digest's last word about an
 * entity is its newest change. Not the delivery ids' order: an escalation's id is timed by the change
 * that opened its incident while it tells the entity's state now, so by id it could precede an older
 * alert and end the digest on a stale state. A closed batch's entries never change.
 */
export async function readBatch(table: Table, tenantId: string, batchId: string): Promise<DigestEntry[]> {
  const items = await queryAll((cursor) =>
    table.query({ pk: `DIGEST#${tenantId}#${batchId}`, consistent: true, cursor }),
  );
  const keyed = entry.parseAll(items).map((e) => ({ e, order: `${changeOrder(e.event)}|${e.delivery_id}` }));
  return keyed.sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0)).map(({ e }) => e);
}
