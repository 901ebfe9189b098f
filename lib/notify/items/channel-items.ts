import * as z from 'zod';
import { belowLimit } from '../../store/conditions.ts';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import { batchGetAll, queryAll } from '../../store/items.ts';
import { type Page, type PageDeps, type PageRequest, readPage } from '../../store/paging.ts';
import { checkPartition, tenantItemKeys, tenantPk } from '../../store/partitions.ts';
import type { Table, WriteOp } from '../../store/table.ts';

/**
 * Owner of every channel item (one owner, since they share the tenant's channel list on gsi1):
 * - `notify_channel`: a check's own channel, in the check's partition (purged with it);
 * - `notify_channel_count`: next to them, the check's own channels plus its attachments, which keeps
 *   the per-check limit under concurrent writes (always written together);
 * - `notify_tenant_channel`: a shared channel of the tenant, in the tenant partition, attached to
 *   checks by id and named by routes; `notify_tenant_channel_count` bounds how many a tenant has;
 * - `notify_channel_attachment`: one tenant channel attached to one check, in the check's partition
 *   (purged with it), listed per channel on gsi1 so deleting the channel detaches it everywhere.
 * Both kinds of channel sit on gsi1 under `CHN#<tnt>` by id: one list, newest first.
 */

/** Channels one check may have; one more is 403 LIMIT_EXCEEDED (a fixed limit, like 50 actions). */
export const MAX_CHANNELS_PER_CHECK = 10;

/** Tenant channels one tenant may have (a fixed limit; 101st create is 403 LIMIT_EXCEEDED). */
export const MAX_TENANT_CHANNELS = 100;

/**
 * A channel's type and config as stored. Both were validated by the type's definition at create
 * (channel-config.ts), and the config is read by its type's `stored` schema where it is used
 * (channels/registry.ts): the owner of the items imports no feature code (the registry is the one
 * list of types), so it keeps the type as a name and the config as an object.
 */
const channelConfigSchema = z.object({
  channel_type: z.string(),
  config: z.record(z.string(), z.unknown()),
  /** The channel's own message template (validated at save: channels/template.ts); absent: Vigil's message. */
  template: z.object({ title: z.string().optional(), body: z.string().optional() }).optional(),
});

/**
 * A channel as senders and deliveries see it: a check's own, or a tenant channel seen from the
 * check whose alert it carries (`check_id` is then that check and `name` is set).
 */
export const channelSchema = z
  .object({ id: z.string(), tenant_id: z.string(), check_id: z.string(), created_at: z.string() })
  .and(channelConfigSchema);
export type ChannelRecord = z.infer<typeof channelSchema> & { name?: string };

/** A tenant channel: attached to checks by id, reached by routes. */
const tenantChannelSchema = z
  .object({
    id: z.string(),
    tenant_id: z.string(),
    name: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .and(channelConfigSchema);
export type TenantChannelRecord = z.infer<typeof tenantChannelSchema>;

/** One tenant channel attached to one check. */
const attachmentSchema = z.object({
  tenant_id: z.string(),
  check_id: z.string(),
  channel_id: z.string(),
  created_at: z.string(),
});
export type AttachmentRecord = z.infer<typeof attachmentSchema>;

const CHANNEL_PREFIX = 'CHANNEL#';
const ATTACHMENT_PREFIX = 'LINK#CHN#';
const TENANT_CHANNEL_PREFIX = 'NCHANNEL#';
/** gsi1 partition of a tenant's channels, both kinds (gsi1sk: the channel id). */
const tenantChannelsPk = (tenantId: string) => `CHN#${tenantId}`;
/** gsi1 partition of one tenant channel's attachments (gsi1sk: the check id). */
const attachmentsPk = (tenantId: string, channelId: string) => `CHNLINK#${tenantId}#${channelId}`;

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

const tenantChannel = defineItem({
  type: itemType('notify_tenant_channel'),
  schema: tenantChannelSchema,
  ...tenantItemKeys(TENANT_CHANNEL_PREFIX, '<chn_id>'),
  gsi1: (r) => ({ pk: tenantChannelsPk(r.tenant_id), sk: r.id }),
});

const tenantChannelCount = defineItem({
  type: itemType('notify_tenant_channel_count'),
  schema: z.object({ count: z.number().int() }),
  key: (k: { tenant_id: string }) => ({ pk: tenantPk(k.tenant_id), sk: 'NOTIFY#TCHANNELS' }),
  keyOf: (_r, c: { tenant_id: string }) => c,
  docKey: { tenant_id: '<tnt>' },
});

const attachment = defineItem({
  type: itemType('notify_channel_attachment'),
  schema: attachmentSchema,
  key: (k: { check_id: string; channel_id: string }) => ({
    pk: checkPartition(k.check_id),
    sk: `${ATTACHMENT_PREFIX}${k.channel_id}`,
  }),
  gsi1: (r) => ({ pk: attachmentsPk(r.tenant_id, r.channel_id), sk: r.check_id }),
  docKey: { check_id: '<chk_id>', channel_id: '<chn_id>' },
});

/** Every item of the check's partition under `prefix`, oldest first (consistent). */
const listInCheck = (table: Table, checkId: string, prefix: string) =>
  queryAll((cursor) =>
    table.query({ pk: checkPartition(checkId), sk: { op: 'beginsWith', prefix }, consistent: true, cursor }),
  );

/** Every channel of the check, oldest first (consistent). */
export async function listChannelsOfCheck(table: Table, checkId: string): Promise<ChannelRecord[]> {
  return channel.parseAll(await listInCheck(table, checkId, CHANNEL_PREFIX));
}

/** One channel of the check (consistent), or undefined. */
export function getChannel(
  table: Table,
  checkId: string,
  channelId: string,
): Promise<ChannelRecord | undefined> {
  return channel.get(table, { check_id: checkId, id: channelId }, { consistent: true });
}

/**
 * A page of the tenant's channels (gsi1): its checks' own and its tenant channels, newest first;
 * the cursor is sealed for this list.
 */
export async function readTenantChannels(
  deps: PageDeps,
  tenantId: string,
  page: PageRequest,
): Promise<{ channels: (ChannelRecord | TenantChannelRecord)[]; nextCursor: Page['nextCursor'] }> {
  const read = await readPage(deps, { index: 'gsi1', pk: tenantChannelsPk(tenantId), prefix: 'chn_' }, page);
  const parse = (item: (typeof read.items)[number]) =>
    tenantChannel.is(item) ? tenantChannel.parse(item) : channel.parse(item);
  return { channels: read.items.map(parse), nextCursor: read.nextCursor };
}

/** One tenant channel (consistent), or undefined. */
export function getTenantChannel(
  table: Table,
  tenantId: string,
  channelId: string,
): Promise<TenantChannelRecord | undefined> {
  return tenantChannel.get(table, { tenant_id: tenantId, id: channelId }, { consistent: true });
}

/** The tenant channels of these ids that exist (any order; unknown ids are left out). */
export async function getTenantChannels(
  table: Table,
  tenantId: string,
  channelIds: readonly string[],
): Promise<TenantChannelRecord[]> {
  if (channelIds.length === 0) return [];
  const keys = [...new Set(channelIds)].map((id) => tenantChannel.key({ tenant_id: tenantId, id }));
  return tenantChannel.parseAll(await batchGetAll(table, keys));
}

/** The tenant channels attached to the check, oldest attachment first (consistent). */
export async function listAttachmentsOfCheck(table: Table, checkId: string): Promise<AttachmentRecord[]> {
  return attachment.parseAll(await listInCheck(table, checkId, ATTACHMENT_PREFIX));
}

/** The checks a tenant channel is attached to (gsi1: eventually consistent in the cloud). */
export async function listAttachmentsOfChannel(
  table: Table,
  tenantId: string,
  channelId: string,
): Promise<AttachmentRecord[]> {
  const items = await queryAll((cursor) =>
    table.query({ index: 'gsi1', pk: attachmentsPk(tenantId, channelId), cursor }),
  );
  return attachment.parseAll(items);
}

/** The check's counter of own channels and attachments, one more (held below MAX_CHANNELS_PER_CHECK). */
const countedIn = (record: { check_id: string; tenant_id: string }) =>
  channelCount.upsert(
    { check_id: record.check_id },
    {
      set: { tenant_id: record.tenant_id },
      add: { count: 1 },
      condition: belowLimit('count', MAX_CHANNELS_PER_CHECK),
    },
  );

/** The check's counter, one fewer. */
const countedOut = (checkId: string) => channelCount.upsert({ check_id: checkId }, { add: { count: -1 } });

/**
 * The writes that add a channel, in this order: the counter's add (holds below
 * MAX_CHANNELS_PER_CHECK) and the channel's put (`itemNotExists`). The caller puts a check-exists
 * condition first in the same transaction.
 */
export function channelAddedOps(record: ChannelRecord): WriteOp[] {
  return [countedIn(record), channel.put(record, { kind: 'itemNotExists' })];
}

/** The writes that remove a channel: its delete (`itemExists`: first op) and the counter's subtract. */
export function channelRemovedOps(checkId: string, channelId: string): WriteOp[] {
  return [channel.delete({ check_id: checkId, id: channelId }, { kind: 'itemExists' }), countedOut(checkId)];
}

/** The writes that create a tenant channel: the tenant's counter (below MAX_TENANT_CHANNELS), then the channel. */
export function tenantChannelCreatedOps(record: TenantChannelRecord): WriteOp[] {
  return [
    tenantChannelCount.upsert(
      { tenant_id: record.tenant_id },
      { add: { count: 1 }, condition: belowLimit('count', MAX_TENANT_CHANNELS) },
    ),
    tenantChannel.put(record, { kind: 'itemNotExists' }),
  ];
}

/** The put that replaces a tenant channel while its `updated_at` is still `expected` (no lost update). */
export function tenantChannelChangedOp(record: TenantChannelRecord, expected: string): WriteOp {
  return tenantChannel.put(record, { kind: 'compare', attr: 'updated_at', op: '=', value: expected });
}

/** The writes that delete a tenant channel (`itemExists`: first op) and count it out. */
export function tenantChannelDeletedOps(tenantId: string, channelId: string): WriteOp[] {
  return [
    tenantChannel.delete({ tenant_id: tenantId, id: channelId }, { kind: 'itemExists' }),
    tenantChannelCount.upsert({ tenant_id: tenantId }, { add: { count: -1 } }),
  ];
}

/**
 * The writes that attach a tenant channel to a check, in this order: the check's counter (an
 * attachment counts toward MAX_CHANNELS_PER_CHECK), the attachment (`itemNotExists`: not attached
 * yet) and a check that the channel exists. The caller puts a check-exists condition first.
 */
export function attachmentAddedOps(record: AttachmentRecord): WriteOp[] {
  return [
    countedIn(record),
    attachment.put(record, { kind: 'itemNotExists' }),
    tenantChannel.conditionCheck(
      { tenant_id: record.tenant_id, id: record.channel_id },
      { kind: 'itemExists' },
    ),
  ];
}

/** The writes that detach a tenant channel from a check: the attachment's delete (`itemExists`: first op), the counter's subtract. */
export function attachmentRemovedOps(checkId: string, channelId: string): WriteOp[] {
  return [
    attachment.delete({ check_id: checkId, channel_id: channelId }, { kind: 'itemExists' }),
    countedOut(checkId),
  ];
}
