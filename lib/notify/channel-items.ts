import * as z from 'zod';
import { belowLimit } from '../store/conditions.ts';
import { defineItem } from '../store/item-definition.ts';
import { itemType } from '../store/item-type.ts';
import { queryAll } from '../store/items.ts';
import { type Page, type PageDeps, type PageRequest, readPage } from '../store/paging.ts';
import { checkPartition } from '../store/partitions.ts';
import type { Table, WriteOp } from '../store/table.ts';

/**
 * Owner of `notify_channel` and `notify_channel_count`: a check's channels, items in the check's
 * partition (purged with it) listed across the tenant through gsi1, and the counter next to them
 * that keeps the per-check limit under concurrent creates (always written together).
 */

export { CHANNEL_TYPES, type ChannelType } from '../domain/channel-types.ts';

/** Channels one check may have; one more is 403 LIMIT_EXCEEDED (a fixed limit, like 50 actions). */
export const MAX_CHANNELS_PER_CHECK = 10;

export const webhookConfigSchema = z.object({ url: z.string(), secret: z.string().optional() });
export const chatConfigSchema = z.object({ url: z.string() });
export const natsConfigSchema = z.object({ subject: z.string() });
export const ntfyConfigSchema = z.object({ url: z.string(), token: z.string().optional() });
export const emailConfigSchema = z.object({ to: z.array(z.string()) });

/** A stored channel: its type and that type's config (validated at create: channel-config.ts). */
export const channelSchema = z
  .object({ id: z.string(), tenant_id: z.string(), check_id: z.string(), created_at: z.string() })
  .and(
    z.discriminatedUnion('channel_type', [
      z.object({ channel_type: z.literal('slack'), config: chatConfigSchema }),
      z.object({ channel_type: z.literal('discord'), config: chatConfigSchema }),
      z.object({ channel_type: z.literal('webhook'), config: webhookConfigSchema }),
      z.object({ channel_type: z.literal('nats'), config: natsConfigSchema }),
      z.object({ channel_type: z.literal('ntfy'), config: ntfyConfigSchema }),
      z.object({ channel_type: z.literal('email'), config: emailConfigSchema }),
    ]),
  );
export type ChannelRecord = z.infer<typeof channelSchema>;

const CHANNEL_PREFIX = 'CHANNEL#';
/** gsi1 partition of a tenant's channels (gsi1sk: the channel id). */
const tenantChannelsPk = (tenantId: string) => `CHN#${tenantId}`;

const channel = defineItem({
  type: itemType('notify_channel'),
  schema: channelSchema,
  key: (k: { check_id: string; id: string }) => ({
    pk: checkPartition(k.check_id),
    sk: `${CHANNEL_PREFIX}${k.id}`,
  }),
  gsi1: (r) => ({ pk: tenantChannelsPk(r.tenant_id), sk: r.id }),
  docKey: { check_id: '<chk_id>', id: '<chn_id>' },
});

const channelCount = defineItem({
  type: itemType('notify_channel_count'),
  // tenant_id is set by the first add; a remove sets only the count.
  schema: z.object({ tenant_id: z.string().optional(), count: z.number().int() }),
  key: (k: { check_id: string }) => ({ pk: checkPartition(k.check_id), sk: 'NOTIFY#CHANNELS' }),
  // The record does not repeat its check: the key comes from the context of a write.
  keyOf: (_r, c: { check_id: string }) => c,
  docKey: { check_id: '<chk_id>' },
});

/** Every channel of the check, oldest first (consistent). */
export async function listChannelsOfCheck(table: Table, checkId: string): Promise<ChannelRecord[]> {
  const items = await queryAll((cursor) =>
    table.query({
      pk: checkPartition(checkId),
      sk: { op: 'beginsWith', prefix: CHANNEL_PREFIX },
      consistent: true,
      cursor,
    }),
  );
  return channel.parseAll(items);
}

/** One channel of the check (consistent), or undefined. */
export function getChannel(
  table: Table,
  checkId: string,
  channelId: string,
): Promise<ChannelRecord | undefined> {
  return channel.get(table, { check_id: checkId, id: channelId }, { consistent: true });
}

/** A page of the tenant's channels across its checks (gsi1), newest first; the cursor is sealed for this list. */
export async function readTenantChannels(
  deps: PageDeps,
  tenantId: string,
  page: PageRequest,
): Promise<{ channels: ChannelRecord[]; nextCursor: Page['nextCursor'] }> {
  const read = await readPage(deps, { index: 'gsi1', pk: tenantChannelsPk(tenantId), prefix: 'chn_' }, page);
  return { channels: read.items.map((item) => channel.parse(item)), nextCursor: read.nextCursor };
}

/**
 * The writes that add a channel, in this order: the counter's add (holds below
 * MAX_CHANNELS_PER_CHECK) and the channel's put (`itemNotExists`). The caller puts a check-exists
 * condition first in the same transaction.
 */
export function channelAddedOps(record: ChannelRecord): WriteOp[] {
  return [
    channelCount.upsert(
      { check_id: record.check_id },
      {
        set: { tenant_id: record.tenant_id },
        add: { count: 1 },
        condition: belowLimit('count', MAX_CHANNELS_PER_CHECK),
      },
    ),
    channel.put(record, { kind: 'itemNotExists' }),
  ];
}

/** The writes that remove a channel: its delete (`itemExists`: first op) and the counter's subtract. */
export function channelRemovedOps(checkId: string, channelId: string): WriteOp[] {
  return [
    channel.delete({ check_id: checkId, id: channelId }, { kind: 'itemExists' }),
    channelCount.upsert({ check_id: checkId }, { add: { count: -1 } }),
  ];
}
